import Foundation

/// The answer to "migrate or replace for my store?" in one line per store size: the fastest strategy, how many
/// times faster it is than each other one and how its peak memory compares, and whether every output equals
/// the store it copied. Ratios are of medians over the rounds.
public enum BenchVerdict {
    public static func lines(_ report: BenchReport) -> [String] {
        var lines: [String] = []
        for size in report.configuration.sizes {
            let results = report.results.filter { $0.targetBytes == size && $0.strategy != BenchReport.checkerName }
            guard let fastest = results.min(by: { $0.wallSeconds.median < $1.wallSeconds.median }), results.count > 1 else { continue }
            let others = results.filter { $0.strategy != fastest.strategy }.map { other -> String in
                let speed = other.wallSeconds.median / max(fastest.wallSeconds.median, 1e-9)
                let memory = other.peakRSSBytes.median / max(fastest.peakRSSBytes.median, 1)
                let memoryText = memory >= 1.1 ? "\(ratio(memory)) less peak memory"
                    : memory <= 1 / 1.1 ? "but \(ratio(1 / memory)) more peak memory" : "about the same peak memory"
                return "\(ratio(speed)) faster and \(memoryText) than \(other.strategy)"
            }
            let differing = results.filter { $0.sourceCheck?.equal == false }.map(\.strategy)
            let unchecked = results.allSatisfy { $0.sourceCheck == nil }
            let outputs = unchecked ? "" : differing.isEmpty ? "; every output equals the store"
                : "; the output of \(differing.joined(separator: ", ")) DIFFERS from the store"
            let scope = report.configuration.userStore != nil ? "your store" : ByteCount.label(size)
            lines.append("verdict (\(scope)): \(fastest.strategy) is \(others.joined(separator: "; "))\(outputs)")
        }
        return lines
    }

    /// "16.6x", "31x", "1.2x".
    static func ratio(_ value: Double) -> String {
        value >= 10 ? String(format: "%.0fx", value) : String(format: "%.1fx", value)
    }
}
