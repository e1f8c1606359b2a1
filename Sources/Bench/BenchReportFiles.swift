import Foundation
import Reporting

/// Writes a run's report into `reports/bench-<id>/` (bench.json, bench.md, bench.html) and marks it latest.
public enum BenchReportFiles {
    public static func write(_ report: BenchReport, to run: RunDirectory) throws {
        try run.write("bench.json", String(decoding: try report.encoded(), as: UTF8.self) + "\n")
        try run.write("bench.md", BenchTable.markdown(report))
        try run.write("bench.html", BenchHTML.page(report))
        try run.markLatest()
    }

    /// Reads a baseline or earlier report from disk.
    public static func read(_ url: URL) throws -> BenchReport {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw BenchError.badInput("cannot read \(url.path)") }
        return try BenchReport.decode(data, from: url.path)
    }
}
