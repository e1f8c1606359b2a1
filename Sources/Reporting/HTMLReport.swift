import Checks
import Foundation

/// `report.html`: one self-contained page (the one `PageStyle` sheet and `SVGChart` SVG inline, no scripts, no
/// external links), in the order a person reads it: the verdict; the findings, worst first, each with its
/// consequence, evidence, cause and fix; the app's own losses apart; the timeline (`HTMLReport+Timeline.swift`);
/// the invariants, with the ones the run did not exercise folded; the operations; the fault coverage table last.
public enum HTMLReport {
    /// `repro` is the replay file's path as a reader should type it (the run folder's real path; inside a suite
    /// folder that is `runs/<run-id>`); `reports/<run-id>/repro.yaml` when not given.
    public static func render(_ result: RunResult, repro: String? = nil) -> String {
        let verdictClass = result.expectationMet ? "ok" : "bad"
        let ranked = Verdict.ranked(result.verdicts)
        func row(_ verdict: Verdict) -> String {
            "<tr class=\"\(verdict.status.rawValue)\"><td>\(h(verdict.invariant))</td><td>\(h(verdict.status.rawValue))</td><td>\(h(FindingText.relativePaths(verdict.summary)))</td></tr>\n"
        }
        let examined = ranked.filter { $0.status != .notApplicable && !$0.isAppsOwn }.map(row).joined()
        let folded = ranked.filter { $0.status == .notApplicable && !$0.isAppsOwn }
        let unexercised = folded.isEmpty ? "" : """
            <details><summary>\(folded.count) invariant(s) not exercised by this run (why, for each)</summary>
            <table><tr><th>invariant</th><th>verdict</th><th>why</th></tr>
            \(folded.map(row).joined())</table></details>

            """
        let findings = Finding.of(result.verdicts)
        let program = findings.filter { !$0.appsOwn }, apps = findings.filter(\.appsOwn)
        var findingsSection = "<h2>Findings</h2>\n"
        if program.isEmpty {
            findingsSection += "<p>None: no invariant this run examined was violated.</p>\n"
        } else {
            findingsSection += "<p>Worst first. Each says what is lost and when, the first evidence, the operation the op log blames, and what to change.</p>\n"
            findingsSection += program.map(block).joined()
        }
        let appsSection = apps.isEmpty ? "" : """
            <h2>The app's own</h2>
            <p>What the app itself loses (Core Data's behaviour), whatever the program under test does: reported apart, and not counted against it.</p>
            \(apps.map(block).joined())
            """
        var evidence = ""
        for verdict in ranked where verdict.status == .violated && (verdict.evidence.count > 1 || (verdict.cause ?? "").contains("; ")) {
            evidence += "<details><summary>\(h(verdict.invariant)): all the evidence (\(verdict.evidence.count)) and every operation of the cause</summary>"
                + (verdict.cause.map { "<p class=\"cause\"><strong>Cause:</strong> \(h($0))</p>" } ?? "") + "<ul>"
                + verdict.evidence.map { "<li>\(h(FindingText.relativePaths($0)))</li>" }.joined() + "</ul></details>\n"
        }
        var operations = ""
        for op in result.operations {
            let details = op.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            operations += "<tr><td>\(h(op.name))</td><td>\(h(op.strategy))</td><td>\(String(format: "%.3f", op.start))</td><td>\(String(format: "%.3f", op.end))</td><td>\(op.succeeded ? "ok" : h("failed: " + (op.error ?? "")))</td><td>\(h(details))</td></tr>\n"
        }
        return PageStyle.open(title: "Lifeboat \(result.scenario) \(result.runID)") + """
        <h1>Lifeboat run \(h(result.runID)): \(h(result.scenario))</h1>
        <p>\(h(result.description))</p>
        <p class="\(verdictClass)"><strong>\(result.expectationMet ? "AS EXPECTED" : "UNEXPECTED")</strong>: expected \(h(result.expectation)); \(program.isEmpty ? "no finding" : "\(program.count) finding(s)")\(apps.isEmpty ? "" : ", \(apps.count) of the app's own"); seed \(result.seed); \(String(format: "%.2f", result.seconds)) s. Replay with <code>lifeboat replay \(h(repro ?? "reports/\(result.runID)/repro.yaml"))</code>.</p>
        \(result.errors.isEmpty ? "" : "<h2>Run errors</h2><ul>" + result.errors.map { "<li>\(h(FindingText.relativePaths($0)))</li>" }.joined() + "</ul>")
        \(findingsSection)\(appsSection)\(evidence)<h2>Timeline</h2>
        \(timeline(result))
        <h2>Invariants</h2>
        <table><tr><th>invariant</th><th>verdict</th><th>summary</th></tr>
        \(examined)</table>
        \(unexercised)<h2>Operations</h2>
        <table><tr><th>operation</th><th>strategy</th><th>start (s)</th><th>end (s)</th><th>result</th><th>details</th></tr>
        \(operations)</table>
        \(StallsAndDamage.html(result))\(CoverageTable.html(result.coverage))

        """ + PageStyle.close
    }

    /// One finding as a block: the invariant and its consequence, then the evidence, the cause and the fix.
    public static func block(_ finding: Finding) -> String {
        var html = "<div class=\"finding\(finding.appsOwn ? " app" : "")\"><h3>\(h(finding.invariant)) <span class=\"severity\">(\(h(finding.severity.title)))</span>: \(h(finding.consequence))</h3>\n"
        if let evidence = finding.evidence { html += "<p><strong>Evidence:</strong> \(h(evidence))</p>\n" }
        if let cause = finding.cause { html += "<p class=\"cause\"><strong>Cause:</strong> \(h(cause))</p>\n" }
        if let fix = finding.fix { html += "<p class=\"fix\"><strong>Fix:</strong> \(h(fix))</p>\n" }
        return html + "</div>\n"
    }

    static func h(_ text: String) -> String { PageText.html(text) }
}
