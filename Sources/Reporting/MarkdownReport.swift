import Checks
import Foundation

/// `report.md`, for a pull request comment or a terminal, in the order of report.html: the verdict, the findings
/// worst first (consequence, evidence, cause, fix), the app's own apart, the invariants examined, the ones not
/// exercised folded, operations, writers and faults, and the fault coverage table last.
public enum MarkdownReport {
    /// `repro` is the replay file's real path (see `HTMLReport.render`).
    public static func render(_ result: RunResult, repro: String? = nil) -> String {
        let findings = Finding.of(result.verdicts)
        let program = findings.filter { !$0.appsOwn }, apps = findings.filter(\.appsOwn)
        var lines = [
            "# Lifeboat run \(result.runID): \(result.scenario)", "",
            result.description.isEmpty ? nil : result.description,
            "",
            "**\(result.expectationMet ? "AS EXPECTED" : "UNEXPECTED")**: expected \(result.expectation); "
                + "\(program.isEmpty ? "no finding" : "\(program.count) finding(s)")\(apps.isEmpty ? "" : ", \(apps.count) of the app's own"); "
                + "seed \(result.seed); \(String(format: "%.2f", result.seconds)) s.",
            "Replay: `lifeboat replay \(repro ?? "reports/\(result.runID)/repro.yaml")`",
        ].compactMap { $0 }
        if !result.errors.isEmpty { lines += ["", "## Run errors", ""] + result.errors.map { "- \(FindingText.relativePaths($0))" } }
        for (title, list) in [("Findings, worst first", program), ("The app's own losses (Core Data's behaviour, not the program's)", apps)] where !list.isEmpty {
            lines += ["", "## \(title)", ""]
            for finding in list {
                lines += ["### \(finding.invariant) (\(finding.severity.title))", "", "\(finding.consequence).", ""]
                if let evidence = finding.evidence { lines.append("- **Evidence:** \(evidence)") }
                if let cause = finding.cause { lines.append("- **Cause:** \(cause)") }
                if let fix = finding.fix { lines.append("- **Fix:** \(fix)") }
            }
        }
        let ranked = Verdict.ranked(result.verdicts)
        lines += ["", "## Invariants", "", "| invariant | verdict | summary |", "|---|---|---|"]
        for verdict in ranked where verdict.status != .notApplicable {
            lines.append("| \(verdict.invariant) | \(verdict.status.rawValue)\(verdict.isAppsOwn ? " (the app's own)" : "") | \(escape(FindingText.relativePaths(verdict.summary))) |")
        }
        let folded = ranked.filter { $0.status == .notApplicable }
        if !folded.isEmpty {
            lines += ["", "<details><summary>\(folded.count) invariant(s) not exercised by this run</summary>", "",
                      "| invariant | why |", "|---|---|"]
            lines += folded.map { "| \($0.invariant) | \(escape($0.summary)) |" }
            lines += ["", "</details>"]
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
        let evidence = ranked.filter { $0.status == .violated && ($0.evidence.count > 1 || ($0.cause ?? "").contains("; ")) }
        if !evidence.isEmpty {
            lines += ["", "## All evidence", ""]
            for verdict in evidence {
                lines += ["### \(verdict.invariant)\(verdict.isAppsOwn ? " (the app's own)" : "")", ""]
                if let cause = verdict.cause, cause.contains("; ") { lines += ["**Cause, every operation:** \(cause)", ""] }
                lines += verdict.evidence.map { "- \(FindingText.relativePaths($0))" } + [""]
            }
        }
        lines += CoverageTable.markdown(result.coverage)
        return lines.joined(separator: "\n") + "\n"
    }

    static func escape(_ text: String) -> String { PageText.markdownCell(text) }
}
