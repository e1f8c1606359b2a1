import Checks
import Foundation

/// `report.md`: verdict, invariant table, operations and evidence, for a pull request comment or a terminal.
public enum MarkdownReport {
    /// `repro` is the replay file's real path (see `HTMLReport.render`).
    public static func render(_ result: RunResult, repro: String? = nil) -> String {
        var lines = [
            "# Lifeboat run \(result.runID): \(result.scenario)", "",
            result.description.isEmpty ? nil : result.description,
            "",
            "**\(result.expectationMet ? "AS EXPECTED" : "UNEXPECTED")**: expected \(result.expectation); seed \(result.seed); \(String(format: "%.2f", result.seconds)) s.",
            "Replay: `lifeboat run \(repro ?? "reports/\(result.runID)/repro.yaml")`", "",
            "| invariant | verdict | summary |", "|---|---|---|",
        ].compactMap { $0 }
        for verdict in result.verdicts {
            lines.append("| \(verdict.invariant) | \(verdict.status.rawValue)\(verdict.isAppsOwn ? " (the app's own)" : "") | \(escape(verdict.summary)) |")
        }
        lines += ["", "## Operations", "", "| operation | strategy | start (s) | end (s) | result | details |", "|---|---|---|---|---|---|"]
        for op in result.operations {
            let details = op.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            lines.append("| \(op.name) | \(op.strategy) | \(String(format: "%.3f", op.start)) | \(String(format: "%.3f", op.end)) | \(op.succeeded ? "ok" : "failed: " + escape(op.error ?? "")) | \(escape(details)) |")
        }
        lines += ["", "## Writers", "", "| writer | committed | failed | in flight |", "|---|---|---|---|"]
        for writer in result.writers { lines.append("| \(writer.writer) | \(writer.committed) | \(writer.failed) | \(writer.inFlight) |") }
        if !result.faults.isEmpty {
            lines += ["", "## Faults", ""] + result.faults.map { "- \($0.name): fired \($0.fired) time(s); \($0.detail)" + ($0.hit.map { "; first on \($0.summary)" } ?? "") }
        }
        lines += StallsAndDamage.markdown(result)
        lines += CoverageTable.markdown(result.coverage)
        let violated = result.verdicts.filter { $0.status == .violated && !$0.isAppsOwn }
        let apps = result.verdicts.filter { $0.status == .violated && $0.isAppsOwn }
        for (title, verdicts) in [("Evidence", violated), ("The app's own losses (Core Data's behaviour, not the program's)", apps)] where !verdicts.isEmpty {
            lines += ["", "## \(title)", ""]
            for verdict in verdicts {
                lines.append("### \(verdict.invariant)")
                if let cause = verdict.cause { lines += ["", "**Cause:** \(cause)", ""] }
                if let fix = verdict.fix { lines += ["**Fix:** \(fix)", ""] }
                lines += verdict.evidence.map { "- \($0)" }
                lines.append("")
            }
        }
        if !result.errors.isEmpty { lines += ["", "## Run errors", ""] + result.errors.map { "- \($0)" } }
        return lines.joined(separator: "\n") + "\n"
    }

    static func escape(_ text: String) -> String { PageText.markdownCell(text) }
}
