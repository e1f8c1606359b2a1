import Checks
import Foundation

/// The coverage table in Markdown and HTML, shared by run, explore and walk reports.
public enum CoverageTable {
    public static func markdown(_ coverage: RunCoverage?) -> [String] {
        guard let coverage else { return [] }
        var lines = ["", "## Fault coverage", "",
                     "\(coverage.runs > 1 ? "\(coverage.runs) runs: " : "")crash points (fsync, fdatasync, fsyncdir, sync-all): \(coverage.crashPointsAvailable) available, \(coverage.crashPointsExplored) explored.\(crashStatesSentence(coverage))",
                     "", "| op | file | ran | matched a rule | fault fired |", "|---|---|---|---|---|"]
        for row in coverage.sortedRows {
            lines.append("| \(row.op) | \(row.fileClass) | \(row.ops) | \(row.matched) | \(row.fired) |")
        }
        return lines
    }

    /// " N crash states checked (F failed, E examined afresh)." for a `crash-states` run, else nothing.
    static func crashStatesSentence(_ coverage: RunCoverage) -> String {
        guard let checked = coverage.crashStatesChecked else { return "" }
        let short = coverage.crashStatesShortMain.map {
            " \($0) of them had a main file shorter than one page beside a -wal with committed frames (\(coverage.crashStatesShortMainFailed ?? 0) lost an acknowledged commit)."
        } ?? ""
        return " \(checked) crash states checked (\(coverage.crashStatesFailed ?? 0) failed, \(coverage.crashStatesExamined ?? checked) examined afresh)." + short
    }

    public static func html(_ coverage: RunCoverage?) -> String {
        guard let coverage else { return "" }
        var rows = ""
        for row in coverage.sortedRows {
            let style = row.fired > 0 ? " class=\"violated\"" : ""
            rows += "<tr\(style)><td>\(HTMLReport.h(row.op))</td><td>\(HTMLReport.h(row.fileClass))</td><td>\(row.ops)</td><td>\(row.matched)</td><td>\(row.fired)</td></tr>\n"
        }
        return """
        <h2>Fault coverage</h2>
        <p>\(coverage.runs > 1 ? "\(coverage.runs) runs: " : "")crash points (fsync, fdatasync, fsyncdir, sync-all): \(coverage.crashPointsAvailable) available, \(coverage.crashPointsExplored) explored.\(HTMLReport.h(crashStatesSentence(coverage)))</p>
        <table><tr><th>op</th><th>file</th><th>ran</th><th>matched a rule</th><th>fault fired</th></tr>
        \(rows)</table>

        """
    }
}
