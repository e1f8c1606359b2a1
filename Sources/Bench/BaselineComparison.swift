import Foundation

/// Compares a run with a baseline: a strategy at a store size whose median time or peak memory got worse than
/// the threshold allows is a regression (CI fails on it).
///
/// Tiny absolute changes are not regressions even when their ratio is large (a 0.02 s step or a few MB of RSS
/// is noise on a shared machine): time must also be worse by `minimumSeconds` and memory by `minimumBytes`.
public struct BaselineComparison: Sendable {
    public struct Regression: Sendable, Equatable, CustomStringConvertible {
        public var strategy: String
        public var targetBytes: Int64
        public var metric: String
        public var baseline: Double
        public var current: Double
        public var change: Double { baseline > 0 ? current / baseline - 1 : .infinity }

        public var description: String {
            let format = { (value: Double) in metric == "time" ? String(format: "%.2f s", value) : ByteCount.format(value) }
            return "REGRESSION \(ByteCount.label(targetBytes)) \(strategy) \(metric): \(format(baseline)) -> \(format(current)) (+\(Int((change * 100).rounded()))%)"
        }
    }

    public var threshold: Double
    public var minimumSeconds = 0.05
    public var minimumBytes: Double = 4_000_000

    public init(threshold: Double) { self.threshold = threshold }

    /// Regressions, plus the (strategy, size) pairs the baseline did not measure.
    public func compare(_ current: BenchReport, baseline: BenchReport) -> (regressions: [Regression], unmatched: [String]) {
        var regressions: [Regression] = []
        var unmatched: [String] = []
        for result in current.results {
            guard let old = baseline.results.first(where: { $0.strategy == result.strategy && $0.targetBytes == result.targetBytes }) else {
                unmatched.append("\(ByteCount.label(result.targetBytes)) \(result.strategy)")
                continue
            }
            let time = (old.wallSeconds.median, result.wallSeconds.median)
            if time.1 > time.0 * (1 + threshold), time.1 - time.0 > minimumSeconds {
                regressions.append(Regression(strategy: result.strategy, targetBytes: result.targetBytes, metric: "time", baseline: time.0, current: time.1))
            }
            let memory = (old.peakRSSBytes.median, result.peakRSSBytes.median)
            if memory.1 > memory.0 * (1 + threshold), memory.1 - memory.0 > minimumBytes {
                regressions.append(Regression(strategy: result.strategy, targetBytes: result.targetBytes, metric: "peak RSS", baseline: memory.0, current: memory.1))
            }
        }
        return (regressions, unmatched)
    }
}
