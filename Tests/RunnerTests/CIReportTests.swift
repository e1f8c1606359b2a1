import Checks
import ChildProcesses
import Foundation
import LifeboatTestSupport
import Reporting
import Testing

/// The CI renderers, pure functions of hand-built findings: SARIF 2.1.0 (valid against the OASIS schema, worst
/// first, the invariant as the rule, the op log's events as a capped code flow, fingerprints that ignore times
/// and sizes) and GitHub Actions output (at most 10 annotations, a step summary naming every finding, under 1 MiB,
/// cut with a pointer to the artifact).
@Suite struct CIReportTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A finding of `invariant` as the judge words it (the registry's consequence, severity and fix).
    static func finding(_ invariant: String, situation: String, cause: String? = nil, appsOwn: Bool = false) -> CIFinding {
        let entry = InvariantRegistry.invariant(named: invariant)
        let finding = Finding(invariant: invariant, consequence: entry?.consequence ?? invariant, severity: entry?.severity ?? .cost,
                              evidence: "backup-0 (command): writer 1 reflects 0 of its transactions, but 46 were acknowledged before the backup began",
                              cause: cause.map(FindingText.firstClause), fix: entry?.fix, appsOwn: appsOwn)
        return CIFinding(finding: finding, situation: situation, place: "\(situation) (3/3 seeds)", program: "sh my-backup.sh",
                         programFile: "my-backup.sh", repro: "lifeboat replay reports/try-1/repros/program-\(situation)-seed1.yaml", cause: cause)
    }

    static let crashCause = "rename /backups/0-1/Library.sqlite.tmp -> /backups/0-1/Library.sqlite at 0.412 s by backup-0 (mv) was never followed by an fsync of its directory /backups/0-1; "
        + "write of 4096 bytes at 8192 to /backups/0-1/Library.sqlite.tmp at 0.398 s by backup-0 (cp) was never followed by an fsync of /backups/0-1/Library.sqlite.tmp; "
        + "the crash at 0.427 s dropped them: the rename onto /backups/0-1/Library.sqlite was undone"

    /// The fifteen findings of the tests: every invariant of the registry's first fifteen, in reverse order, so
    /// ranking has work to do; one with a cause of 60 events (past the code flow's cap), one the app's own.
    static var fifteen: [CIFinding] {
        var items = InvariantRegistry.names.prefix(15).reversed().enumerated().map { index, name in
            finding(name, situation: "situation-\(index + 1)", cause: index == 3 ? crashCause : nil)
        }
        let many = (1...60).map { "write of 4096 bytes at \($0 * 4096) to /backups/0-1/Library.sqlite at 0.\($0) s by backup-0 (cp) was never followed by an fsync of /backups/0-1/Library.sqlite" }
        items[5] = finding(items[5].finding.invariant, situation: items[5].situation, cause: many.joined(separator: "; "))
        items[0] = finding(items[0].finding.invariant, situation: items[0].situation, appsOwn: true)
        return items
    }

    static let invocation = SARIFReport.Invocation(command: "lifeboat try --backup 'sh my-backup.sh' --seeds 1-3",
                                                   workingDirectory: "/home/runner/work/app/app", version: "0.12.0", category: "lifeboat-try")

    static func json(_ text: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
    }

    /// Runs scripts/validate-sarif.py (the project's .venv: scripts/setup.sh makes it) on `text`.
    static func validate(_ text: String) throws -> (status: Int32, output: String) {
        let python = root.appendingPathComponent(".venv/bin/python")
        guard FileManager.default.isExecutableFile(atPath: python.path) else {
            Issue.record("no .venv/bin/python: run scripts/setup.sh (it installs jsonschema from PyPI)")
            return (-1, "")
        }
        let scratch = try Scratch("sarif")
        let file = scratch.path("out.sarif")
        try Data(text.utf8).write(to: file)
        let outcome = try ChildProcesses.run(ChildSpec(name: "validate-sarif", executable: python.path,
                                                       arguments: [root.appendingPathComponent("scripts/validate-sarif.py").path, file.path]),
                                             timeout: 120)
        return (outcome.termination.status, outcome.output)
    }

    @Test func sarifIsValidWorstFirstWithRulesFlowsAndFingerprints() throws {
        let text = SARIFReport.render(Self.fifteen, invocation: Self.invocation)
        let validation = try Self.validate(text)
        #expect(validation.status == 0, "\(validation.output)")

        let log = try Self.json(text)
        #expect(log["version"] as? String == "2.1.0")
        let runs = try #require(log["runs"] as? [[String: Any]])
        #expect(runs.count == 1)
        let results = try #require(runs[0]["results"] as? [[String: Any]])
        #expect(results.count == 15)
        // Worst first: the program's by severity, then the app's own last.
        let ranked = CIFinding.ranked(Self.fifteen)
        #expect(results.map { $0["ruleId"] as? String } == ranked.map(\.finding.invariant))
        let severities = ranked.filter { !$0.finding.appsOwn }.map(\.finding.severity.rawValue)
        #expect(severities == severities.sorted())
        #expect(ranked.last?.finding.appsOwn == true)
        #expect(results.last?["level"] as? String == "note")

        // The invariant is the rule, its help the consequence, the fix and the docs.
        let driver = try #require((runs[0]["tool"] as? [String: Any])?["driver"] as? [String: Any])
        let rules = try #require(driver["rules"] as? [[String: Any]])
        #expect(rules.count == 15)
        let carried = try #require(rules.first { $0["id"] as? String == "wal-content-carried" })
        let help = try #require((carried["help"] as? [String: Any])?["text"] as? String)
        let invariant = try #require(InvariantRegistry.invariant(named: "wal-content-carried"))
        #expect(help.contains(invariant.consequence) && help.contains(invariant.fix) && help.contains("docs/invariants.md"))
        for result in results {
            let index = try #require(result["ruleIndex"] as? Int)
            #expect(rules[index]["id"] as? String == result["ruleId"] as? String)
            let location = try #require((result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
            #expect((location["artifactLocation"] as? [String: Any])?["uri"] as? String == "my-backup.sh")
            #expect((result["message"] as? [String: Any])?["text"] as? String != nil)
        }

        // The causal events as a code flow, capped, with the cap stated.
        let capped = try #require(results.first { ($0["codeFlows"] as? [[String: Any]])?.first.flatMap { flow in
            ((flow["threadFlows"] as? [[String: Any]])?.first?["locations"] as? [Any])?.count } == SARIFReport.codeFlowCap })
        let flow = try #require((capped["codeFlows"] as? [[String: Any]])?.first)
        #expect((flow["message"] as? [String: Any])?["text"] as? String == "the op log's causal events: 50 of 60 shown (at most 50)")
        #expect((runs[0]["properties"] as? [String: Any])?["codeFlowCap"] as? Int == 50)
        let short = try #require(results.first { $0["ruleId"] as? String == Self.fifteen[3].finding.invariant })
        let events = try #require(((short["codeFlows"] as? [[String: Any]])?.first?["threadFlows"] as? [[String: Any]])?.first?["locations"] as? [[String: Any]])
        #expect(events.count == 3)
        #expect(((events[0]["location"] as? [String: Any])?["message"] as? [String: Any])?["text"] as? String
                == "rename /backups/0-1/Library.sqlite.tmp -> /backups/0-1/Library.sqlite at 0.412 s by backup-0 (mv) was never followed by an fsync of its directory /backups/0-1")

        // Every result has its fingerprint, all different.
        let prints = results.compactMap { ($0["partialFingerprints"] as? [String: String])?[SARIFReport.fingerprintKey] }
        #expect(prints.count == 15 && Set(prints).count == 15)
    }

    @Test func fingerprintsIgnoreTimesSizesAndOffsetsButNotTheCause() {
        let cause = Self.crashCause
        let later = cause.replacingOccurrences(of: "0.412 s", with: "0.731 s").replacingOccurrences(of: "4096 bytes", with: "8192 bytes")
            .replacingOccurrences(of: "0.398 s", with: "1.5 s").replacingOccurrences(of: "at 8192", with: "at 12288")
        let a = Self.finding("backup-durable", situation: "crash-after-backup", cause: cause)
        var b = Self.finding("backup-durable", situation: "crash-after-backup", cause: later)
        b.repro = "lifeboat replay reports/try-2/repros/other.yaml"
        b.place = "crash-after-backup (2/3 seeds)"
        #expect(a.fingerprint == CIFinding(finding: b.finding, situation: b.situation, place: b.place, program: b.program, cause: later).fingerprint)
        #expect(a.fingerprint.count == 64)
        let otherCause = cause.replacingOccurrences(of: "rename", with: "unlink")
        #expect(a.fingerprint != Self.finding("backup-durable", situation: "crash-after-backup", cause: otherCause).fingerprint)
        #expect(a.fingerprint != Self.finding("backup-durable", situation: "crash-during-backup", cause: cause).fingerprint)
        #expect(a.fingerprint != Self.finding("restore-durable", situation: "crash-after-backup", cause: cause).fingerprint)
        var program = Self.finding("backup-durable", situation: "crash-after-backup", cause: cause)
        program = CIFinding(finding: program.finding, situation: program.situation, program: "sh other.sh", cause: cause)
        #expect(a.fingerprint != program.fingerprint)
    }

    @Test func fifteenFindingsMakeTenAnnotationsAndASummaryNamingAllUnderOneMiB() throws {
        let findings = Self.fifteen
        let verdicts = (1...15).map { "situation-\($0) CAUGHT (3/3 seeds)" }
        let output = GitHubActionsReport.render(findings, title: "lifeboat try --backup 'sh my-backup.sh'", verdicts: verdicts,
                                                artifact: "reports/try-1")
        #expect(output.annotations.count == 10)
        #expect(output.annotations.allSatisfy { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") })
        #expect(output.annotations.allSatisfy { !$0.contains("\n") && $0.contains("repro: lifeboat replay ") })
        // Worst first: the annotations are the ranked list's first ten, each naming its finding.
        let ranked = CIFinding.ranked(findings)
        for (annotation, item) in zip(output.annotations, ranked) {
            #expect(annotation.contains(item.finding.invariant) && annotation.contains("file=my-backup.sh,line=1"))
        }
        #expect(output.summary.utf8.count < GitHubActionsReport.summaryLimit)
        #expect(output.cutFindings == 0 && output.cutVerdicts == 0)
        for item in findings {
            #expect(output.summary.contains("`\(item.finding.invariant)`") && output.summary.contains(item.place))
        }
        for verdict in verdicts { #expect(output.summary.contains(verdict)) }
        #expect(output.summary.contains("The first 10 are annotations; all 15 are here."))
    }

    @Test func aSummaryPastItsLimitIsCutWithThePathToTheArtifact() {
        let findings = (0..<400).map { index in Self.finding(InvariantRegistry.names[index % 20], situation: "situation-\(index)") }
        let verdicts = (0..<400).map { "situation-\($0)  CAUGHT (1/1 seed)" }
        let limit = 64 * 1024
        let output = GitHubActionsReport.render(findings, title: "lifeboat run Scenarios --seeds 1-400", verdicts: verdicts,
                                                artifact: "reports/suite-1", summaryLimit: limit)
        #expect(output.annotations.count == 10)
        #expect(output.summary.utf8.count <= limit)
        #expect(output.cutFindings > 0)
        #expect(output.summary.contains("\(output.cutFindings) finding(s) and \(output.cutVerdicts) verdict line(s) are not shown here; the whole report is in reports/suite-1."))
        // What stays is the worst: the first rows of the ranked list.
        #expect(output.summary.contains("| 1 | `\(CIFinding.ranked(findings)[0].finding.invariant)`"))
        // The real limit holds on a run this size too.
        let full = GitHubActionsReport.render(findings, title: "t", verdicts: verdicts, artifact: "reports/suite-1")
        #expect(full.summary.utf8.count < GitHubActionsReport.summaryLimit && full.cutFindings == 0)
    }

    @Test func workflowCommandValuesAreEscaped() {
        #expect(GitHubActionsReport.data("50% of\nit\r") == "50%25 of%0Ait%0D")
        #expect(GitHubActionsReport.property("a: b, c") == "a%3A b%2C c")
    }

    @Test func theStepLineOfAScenarioFile() {
        let text = "name: x\nschedule:\n  - restore: command\n    command: sh r.sh\n  - backup: command\n    command: sh b.sh\n"
        #expect(CIFinding.stepLine("backup", in: text) == 5)
        #expect(CIFinding.stepLine("restore", in: text) == 3)
        #expect(CIFinding.stepLine("backup", in: "name: y\nextends: ../_situations/idle.yaml\n") == nil)
    }

    /// docs/schemas/examples/lifeboat-try.sarif is what the renderer writes for the fifteen findings; validate-ci.sh
    /// checks it against the schema, so CI validates the renderer's output. LIFEBOAT_UPDATE_EXAMPLES=1 rewrites it.
    @Test func theCommittedExampleIsTheRenderersOutput() throws {
        let file = Self.root.appendingPathComponent("docs/schemas/examples/lifeboat-try.sarif")
        let text = SARIFReport.render(Self.fifteen, invocation: Self.invocation)
        if ProcessInfo.processInfo.environment["LIFEBOAT_UPDATE_EXAMPLES"] == "1" {
            try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
            try Data(text.utf8).write(to: file)
        }
        let committed = try String(contentsOf: file, encoding: .utf8)
        #expect(committed == text, "docs/schemas/examples/lifeboat-try.sarif is out of date: LIFEBOAT_UPDATE_EXAMPLES=1 swift test --filter CIReportTests")
    }
}
