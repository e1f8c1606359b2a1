import Checks
import Foundation

/// The one writer of a run's files: the record (`record.json`, what `lifeboat judge` re-judges), the reports
/// (pure functions of the record's result), JUnit, the log and the replay file. Whatever adds to a run's result
/// after the run (crash states count their states into its coverage) writes the reports again through
/// `writeReports`, so report.json, report.md and report.html are only ever written here.
public enum RunReports {
    /// `repro` is the replay file's text: the caller renders it (Runner's `RunReports.write(_:record:scenario:...)`
    /// pins the scenario's scripts first), so Reporting needs no scenario model.
    public static func write(_ result: RunResult, record: RunRecord, repro: String, log: [String], to run: RunDirectory) throws {
        try run.write("record.json", try RecordFile.encode(record))
        try writeReports(result, to: run)
        try run.write("junit.xml", JUnitReport.render([result]))
        try run.write("run.log", log.joined(separator: "\n") + "\n")
        try run.write("repro.yaml", repro)
    }

    /// report.json, report.md and report.html of `result` in `run`, each naming the run's `repro.yaml`.
    public static func writeReports(_ result: RunResult, to run: RunDirectory) throws {
        let repro = "\(run.url.path)/repro.yaml"
        try run.write("report.json", try JSONReport.render(result))
        try run.write("report.md", MarkdownReport.render(result, repro: repro))
        try run.write("report.html", HTMLReport.render(result, repro: repro))
    }
}
