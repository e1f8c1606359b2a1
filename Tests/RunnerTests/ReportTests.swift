import Checks
import Foundation
import FoundationXML
import Reporting
import Testing

/// The reports are pure functions of a run result; these check their shape on a result with every part filled.
@Suite struct ReportTests {
    static let result = RunResult(
        runID: "20261123-000000-abcdef", scenario: "demo <&>", scenarioFile: "Scenarios/demo.yaml", description: "a \"demo\"",
        seed: 3, expectation: "pass", expectationMet: false, startedAt: "2026-11-23T00:00:00Z", seconds: 2.5,
        verdicts: [
            Verdict("integrity", .held, "ok"),
            Verdict("no-duplicates", .violated, "backup-0: 2 finding(s)", evidence: ["Folder X stored 2 times", "Note <Y>"]),
            Verdict("durable-after-crash", .notApplicable, "no crash"),
        ],
        events: [TimelineEvent(t: 1.2, actor: "faultfs", kind: .crash, detail: "crash keep-none")],
        writers: [WriterSummary(writer: 1, committed: 3, failed: 0, inFlight: 1, firstCommit: 0.1, lastCommit: 0.9, commitTimes: [0.1, 0.5, 0.9])],
        operations: [OperationSummary(name: "backup-0", action: "backup", strategy: "migrate", start: 0.4, end: 0.8, succeeded: true,
                                      store: "/tmp/b", details: ["objects": "10"], error: nil)],
        faults: [FaultSummary(name: "rule 0", fired: 2, detail: "write *.sqlite-wal -> errno EIO")], metrics: ["commits": 3], errors: [],
        coverage: RunCoverage(rows: [.init(op: "write", fileClass: "-wal", ops: 40, matched: 12, fired: 1),
                                     .init(op: "fsync", fileClass: "db", ops: 3, matched: 0, fired: 0)],
                              crashPointsAvailable: 9, crashPointsExplored: 1))

    @Test func htmlIsSelfContainedWithATimeline() {
        let html = HTMLReport.render(Self.result)
        #expect(html.contains("<svg") && html.contains("</svg>"))
        // No scripts and nothing fetched: the only URL is the SVG namespace.
        #expect(!html.contains("<script") && !html.contains("src=") && !html.contains("href=") && !html.contains("<link"))
        #expect(!html.contains("https://"))
        #expect(html.contains("demo &lt;&amp;&gt;") && html.contains("Note &lt;Y&gt;"))
        #expect(html.contains("backup-0") && html.contains("writer-1"))
    }

    @Test func junitHasOneCasePerInvariantAndParses() throws {
        let xml = JUnitReport.render([Self.result])
        let document = try XMLDocument(xmlString: xml)
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 3)
        #expect(try document.nodes(forXPath: "//testcase[@name='no-duplicates']/failure").count == 1)
        #expect(try document.nodes(forXPath: "//testcase[@name='durable-after-crash']/skipped").count == 1)
        #expect(try document.nodes(forXPath: "//testcase[@name='integrity']/failure").isEmpty)
    }

    @Test func expectedViolationPassesOnlyWhenItShows() throws {
        var result = Self.result
        result.expectation = "violation no-duplicates"
        let document = try XMLDocument(xmlString: JUnitReport.render([result]))
        #expect(try document.nodes(forXPath: "//failure").isEmpty)
        result.expectation = "violation integrity"
        let other = try XMLDocument(xmlString: JUnitReport.render([result]))
        #expect(try other.nodes(forXPath: "//testcase[@name='integrity']/failure").count == 1)
    }

    @Test func jsonRoundTripsAndMarkdownNamesTheEvidence() throws {
        let decoded = try JSONReport.decode(Data(try JSONReport.render(Self.result).utf8))
        #expect(decoded.verdicts == Self.result.verdicts && decoded.operations == Self.result.operations && decoded.schema == "lifeboat.run/4")
        #expect(decoded.coverage == Self.result.coverage)
        let markdown = MarkdownReport.render(Self.result)
        #expect(markdown.contains("| no-duplicates | violated |") && markdown.contains("- **Evidence:** Folder X stored 2 times"))
        #expect(markdown.contains("- Note <Y>"), "every piece of evidence is in the report")
    }

    /// A person reads the verdict first, then the findings (consequence, evidence, cause, fix), then the
    /// timeline; the invariants the run did not exercise are folded, and the syscall table comes last.
    @Test func reportsOpenWithTheVerdictAndFindingsAndEndWithTheSyscallTable() throws {
        var result = Self.result
        result.verdicts[1].consequence = "objects appear twice"
        result.verdicts[1].fix = "back up into an empty destination"
        result.verdicts[1].cause = "create /backups/0-1/x at 0.700 s by backup-0 (cp) was never followed by an fsync; rename ..."
        let html = HTMLReport.render(result)
        func position(_ text: String, in page: String) throws -> String.Index { try #require(page.range(of: text)).lowerBound }
        #expect(try position("UNEXPECTED", in: html) < position("<h2>Findings</h2>", in: html))
        #expect(try position("<h2>Findings</h2>", in: html) < position("<h2>Timeline</h2>", in: html))
        #expect(try position("<h2>Timeline</h2>", in: html) < position("<h2>Invariants</h2>", in: html))
        #expect(try position("<h2>Operations</h2>", in: html) < position("<h2>Fault coverage</h2>", in: html))
        #expect(html.contains("objects appear twice") && html.contains("<strong>Fix:</strong> back up into an empty destination"))
        #expect(html.contains("<details><summary>1 invariant(s) not exercised"), "n/a rows are folded")
        #expect(html.contains("lifeboat replay ") && !html.contains("lifeboat run "))
        #expect(html.contains("the cause&#39;s operation") || html.contains("the cause's operation"), "the cause is marked on the timeline")
        let markdown = MarkdownReport.render(result)
        #expect(try position("## Findings, worst first", in: markdown) < position("## Invariants", in: markdown))
        #expect(try position("## Operations", in: markdown) < position("## Fault coverage", in: markdown))
        #expect(markdown.contains("- **Cause:** create /backups/0-1/x at 0.700 s by backup-0 (cp) was never followed by an fsync\n"))
        #expect(markdown.contains("Replay: `lifeboat replay "))
    }

    /// Findings rank worst first: a damaged copy before a silent loss before a loss only a power cut brings.
    @Test func findingsRankByConsequence() {
        let verdicts = [Verdict("backup-durable", .violated, "a"), Verdict("integrity", .held, "b"),
                        Verdict("wal-content-carried", .violated, "c"), Verdict("integrity", .violated, "d")]
        #expect(Finding.of(verdicts).map(\.invariant) == ["integrity", "wal-content-carried", "backup-durable"])
        #expect(Finding.of(verdicts).first?.consequence.contains("damaged") == true)
    }

    /// Scratch paths are shown from the run's own folders; wrapping keeps every word and the width.
    @Test func findingTextIsRelativeAndWrapped() {
        let text = "refers to /tmp/lifeboat-scratch/run-20261125-192454-3a0bde/store/backups/0-1/.Library_SUPPORT/x, which is missing"
        #expect(FindingText.relativePaths(text) == "refers to backups/0-1/.Library_SUPPORT/x, which is missing")
        let lines = FindingText.wrap("one two three four five six seven eight nine ten", width: 16, indent: "  ", hanging: "    ")
        #expect(lines.allSatisfy { $0.count <= 16 } && lines.count > 2)
        #expect(lines.joined(separator: " ").split(separator: " ").joined(separator: " ") == "one two three four five six seven eight nine ten")
        #expect(FindingText.wrap("a b", width: nil, indent: "  ", hanging: "") == ["  a b"])
    }

    @Test func coverageTableIsInEveryReportAndOldReportsStillRead() throws {
        let markdown = MarkdownReport.render(Self.result)
        #expect(markdown.contains("## Fault coverage") && markdown.contains("| write | -wal | 40 | 12 | 1 |"))
        #expect(markdown.contains("9 available, 1 explored"))
        let html = HTMLReport.render(Self.result)
        #expect(html.contains("<h2>Fault coverage</h2>") && html.contains("<td>-wal</td><td>40</td><td>12</td><td>1</td>"))
        // A lifeboat.run/1 report (no coverage, no hits) still reads; an unknown schema does not.
        var object = try #require(try JSONSerialization.jsonObject(with: Data(try JSONReport.render(Self.result).utf8)) as? [String: Any])
        object["schema"] = "lifeboat.run/1"
        object["coverage"] = nil
        let old = try JSONReport.decode(try JSONSerialization.data(withJSONObject: object))
        #expect(old.coverage == nil && old.verdicts == Self.result.verdicts)
        object["schema"] = "lifeboat.run/9"
        #expect(throws: (any Error).self) { try JSONReport.decode(try JSONSerialization.data(withJSONObject: object)) }
        let merged = try #require(RunCoverage.merged([Self.result.coverage!, Self.result.coverage!]))
        #expect(merged.runs == 2 && merged.crashPointsAvailable == 18 && merged.rows.first { $0.op == "write" }?.fired == 2)
    }
}
