import Foundation
import Reporting

/// The rows every rendering shares (terminal, Markdown): one per strategy and store size, medians with ranges.
public enum BenchTable {
    public static let header = ["size", "strategy", "wall s (median, min–max)", "CPU s", "peak RSS (min–max)", "wait4 ru_maxrss", "SQLite highwater", "disk read/written", "result", "output vs store", "details"]

    public static func rows(_ report: BenchReport) -> [[String]] {
        report.results.map { result in
            [
                ByteCount.label(result.targetBytes),
                result.strategy,
                String(format: "%.2f (%.2f–%.2f)", result.wallSeconds.median, result.wallSeconds.min, result.wallSeconds.max),
                String(format: "%.2f", result.cpuSeconds.median),
                "\(ByteCount.format(result.peakRSSBytes.median)) (\(ByteCount.format(result.peakRSSBytes.min))–\(ByteCount.format(result.peakRSSBytes.max)))",
                ByteCount.format(result.waitMaxRSSBytes.median),
                result.sqliteMemoryHighwater.map { ByteCount.format($0.median) } ?? "–",
                diskIO(result),
                result.resultBytes.map { ByteCount.format($0) } ?? "–",
                result.sourceCheck.map { $0.summary } ?? "–",
                notableDetails(result.details),
            ]
        }
    }

    /// Median read_bytes/write_bytes of /proc/self/io: what reached storage (a warm page cache reads little).
    static func diskIO(_ result: BenchReport.Result) -> String {
        let io = result.rounds.compactMap { $0.child?.io }
        guard !io.isEmpty else { return "–" }
        let read = Spread(io.map { Double($0.readBytes) }).median, written = Spread(io.map { Double($0.writeBytes) }).median
        return "\(ByteCount.format(read)) / \(ByteCount.format(written))"
    }

    /// The details worth a column: whether replace cloned, how many objects migrate loaded, backup-api restarts.
    static func notableDetails(_ details: [String: String]) -> String {
        ["usedClone", "cloneSkipped", "objects", "restarts", "violations", "fsync", "fdatasync", "fsyncdir"].compactMap { key in details[key].map { "\(key)=\($0)" } }.joined(separator: " ")
    }

    public static func growthRows(_ report: BenchReport) -> [[String]] {
        report.growth.map { fit in
            [fit.subject, String(format: "%.4f", fit.slope), ByteCount.format(fit.intercept), String(fit.points), fit.shape.rawValue]
        }
    }

    public static let growthHeader = ["strategy", "slope (bytes RSS per byte of store)", "intercept", "points", "growth"]

    /// A plain fixed-width table for the terminal.
    public static func text(_ report: BenchReport) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> String {
            let widths = header.indices.map { column in ([header] + rows).map { $0[column].count }.max() ?? 0 }
            let line = { (cells: [String]) in
                zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
                    .trimmingCharacters(in: .whitespaces)
            }
            return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
        }
        let growth = report.configuration.sizes.count < 2 ? "\n\n" + oneSize
            : "\n\nmemory growth (least squares of peak RSS against store size):\n" + table(growthHeader, growthRows(report))
        return table(header, rows(report)) + growth
    }

    /// In place of the growth fit when there is one store size: a fit of one point says nothing.
    static let oneSize = "memory growth: one store size, so no fit (bench with --sizes 64MB,256MB,1GB to see how memory grows with the store)"

    /// The stores the strategies ran on, one line each: a generated one with how it was generated, a user's own
    /// as it is.
    public static func storeLines(_ report: BenchReport) -> [String] {
        report.stores.map { store in
            if let path = report.configuration.userStore {
                return "your store \(path): \(ByteCount.format(store.actualBytes)) on disk (.sqlite \(ByteCount.format(store.databaseBytes))), "
                    + "\(store.objects) objects, \(store.attachments) external-data references"
            }
            return "\(ByteCount.label(store.targetBytes)) generated: \(ByteCount.format(store.actualBytes)) on disk (.sqlite \(ByteCount.format(store.databaseBytes))), "
                + "\(store.objects) objects, \(store.attachments) attachments"
        }
    }

    /// How the stores were made: the generator's settings, or the user's store.
    public static func storeOrigin(_ report: BenchReport) -> String {
        let configuration = report.configuration
        if let path = configuration.userStore { return "Store: a copy of \(path) (never touched)." }
        return "Generated stores: blob fraction \(configuration.blobFraction), attachments of \(ByteCount.format(Int64(configuration.blobSize))), seed \(configuration.seed)."
    }

    /// The same tables in Markdown, with the run's configuration and host above them.
    public static func markdown(_ report: BenchReport) -> String {
        func table(_ header: [String], _ rows: [[String]]) -> String {
            (["| " + header.map(PageText.markdownCell).joined(separator: " | ") + " |", "|" + header.map { _ in "---" }.joined(separator: "|") + "|"]
                + rows.map { "| " + $0.map(PageText.markdownCell).joined(separator: " | ") + " |" }).joined(separator: "\n")
        }
        let configuration = report.configuration
        let stores = storeLines(report).map { "- " + $0 }
        let verdict = BenchVerdict.lines(report).map { "**\($0)**" }
        return """
        # lifeboat bench \(report.id)

        Schema `\(report.schema)`, \(report.createdAt). Host: \(report.host.cpus) CPUs, \(ByteCount.format(report.host.memoryBytes)) RAM, \
        Linux \(report.host.kernel), \(report.host.buildConfiguration) build. Volume: \(configuration.volume). \
        \(configuration.rounds) round(s), each in a fresh child process (wall time, CPU time and peak RSS from wait4's rusage). \
        \(storeOrigin(report))

        \(verdict.joined(separator: "\n\n"))

        *peak RSS* is the child's own VmHWM (read by the child just before it exits: its address space only). \
        *wait4 ru_maxrss* is what the kernel hands the parent; glibc's posix_spawn runs the child on the parent's \
        address space until exec, so it never reads below the parent's RSS at spawn. Page cache warm (the store was \
        just generated or read by the previous round). *output vs store* is the last round's output compared with \
        the store, as `lifeboat check OUTPUT --against STORE` does.

        Stores:
        \(stores.joined(separator: "\n"))

        \(table(header, rows(report)))

        \(configuration.sizes.count < 2 ? oneSize : "Memory growth (least-squares fit of median peak RSS against store size; flat when memory grows by less than \(Int(GrowthFit.flatLimit * 100))% of the store's growth):\n\n" + table(growthHeader, growthRows(report)))

        """
    }
}
