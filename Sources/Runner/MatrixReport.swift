import Foundation
import Reporting

/// Writes a matrix drill's result as `report.json` and `report.md` in its run directory.
public enum MatrixReport {
    public static func write(_ result: StrategyMatrix.Result, to run: RunDirectory) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try run.write("report.json", String(decoding: try encoder.encode(result), as: UTF8.self))
        try run.write("report.md", markdown(result))
    }

    public static func markdown(_ result: StrategyMatrix.Result) -> String {
        var lines = [
            "# Lifeboat strategy drill \(result.runID)", "",
            "Verdict: **\(result.passed ? "PASS" : "FAIL")**: every case \(result.passed ? "showed" : "did not show") the verdict the facts predict.", "",
            "Live store: \(result.objects) generated objects (seed \(result.seed)), then \(result.walTransactions) transactions committed into the -wal and left there.", "",
            "| operation | strategy | expected | actual | time (s) | evidence |",
            "|---|---|---|---|---|---|",
        ]
        for item in result.cases {
            let evidence = item.findings.first.map { PageText.markdownCell($0) } ?? ""
            lines.append("| \(item.operation) | \(item.name) | \(item.expected) | \(item.actual)\(item.matches ? "" : " (unexpected)") | \(String(format: "%.3f", item.seconds)) | \(evidence) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
