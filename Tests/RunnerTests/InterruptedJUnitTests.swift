import Foundation
import FoundationXML
import Reporting
import Runner
import Testing

/// An interrupted run or campaign is red in CI: its JUnit file carries an `<error>`, never just skipped cases
/// with `failures="0"` (the user trial's CI dashboard showed a Ctrl-C'd run as green).
struct InterruptedJUnitTests {
    @Test func anInterruptedRunIsAnErrorInItsJUnit() throws {
        var result = ReportTests.result
        result.verdicts = result.verdicts.filter { $0.status != .violated }
        let calm = try XMLDocument(xmlString: JUnitReport.render([result]))
        #expect(try calm.nodes(forXPath: "//error").isEmpty)
        #expect(try calm.nodes(forXPath: "/testsuites[@errors='0']").count == 1)
        result.interruption = "interrupted by SIGTERM"
        result.errors = ["interrupted (SIGINT/SIGTERM): children killed, volume unmounted"]
        let document = try XMLDocument(xmlString: JUnitReport.render([result]))
        let errors = try document.nodes(forXPath: "//testcase[@name='run']/error")
        #expect(errors.count == 1)
        #expect((errors.first as? XMLElement)?.attribute(forName: "message")?.stringValue == "interrupted by SIGTERM")
        #expect(try document.nodes(forXPath: "/testsuites[@errors='1']").count == 1)
        #expect(try document.nodes(forXPath: "//testsuite[@errors='1']").count == 1)
    }

    @Test func anInterruptedCampaignIsAnErrorInItsJUnit() throws {
        let entries = [SuiteEntry.absent(.init(scenario: "a", seed: 1), expectation: "pass", status: .notRun, reason: "the campaign was interrupted first")]
        var summary = CampaignTests.summary(entries, campaign: nil)
        let plain = try XMLDocument(xmlString: SuiteJUnitReport.render(summary))
        #expect(try plain.nodes(forXPath: "//error").isEmpty)
        summary.interruption = "the campaign was interrupted by SIGINT"
        let document = try XMLDocument(xmlString: SuiteJUnitReport.render(summary))
        #expect(try document.nodes(forXPath: "//testcase[@name='complete']/error[@message='the campaign was interrupted by SIGINT']").count == 1)
        #expect(try document.nodes(forXPath: "/testsuites[@errors='1']").count == 1)
        // A merge of shards keeps the mark of a shard cut short.
        let decoded = try JSONDecoder().decode(SuiteSummary.self, from: try JSONEncoder().encode(summary))
        #expect(decoded.interruption == summary.interruption)
    }

    @Test func theExitCodeFollowsTheSignal() {
        #expect(Interruption.exitCode(signal: SIGINT) == 130)
        #expect(Interruption.exitCode(signal: SIGTERM) == 143)
    }
}
