import Checks
import Foundation

/// The suite's one `junit.xml`: a test suite per scenario, a test case per seed x invariant (named
/// `invariant [seed N]`, failing as the run's own `junit.xml` would), and one skipped case per pair that was
/// skipped or not run, with the reason, so CI shows an incomplete campaign as skipped tests, not as a pass. A
/// campaign that did not run to its end (interrupted, killed) adds one `<error>` case, so CI shows it red.
public enum SuiteJUnitReport {
    public static func render(_ summary: SuiteSummary) -> String {
        var suites: [String] = []
        var total = 0, failures = 0, skipped = 0
        for tally in summary.scenarioTallies() {
            var cases: [String] = []
            var suiteFailures = 0, suiteSkipped = 0
            var seconds = 0.0
            for entry in summary.entries where entry.scenario == tally.scenario {
                let classname = "lifeboat.\(JUnitReport.xml(entry.scenario))"
                seconds += entry.seconds
                guard entry.status == .ran else {
                    suiteSkipped += 1
                    let reason = "\(entry.status == .skipped ? "skipped" : "not run"): \(entry.reason ?? "")"
                    cases.append("    <testcase classname=\"\(classname)\" name=\"seed \(entry.seed)\" time=\"0\"><skipped message=\"\(JUnitReport.xml(reason))\"/></testcase>")
                    continue
                }
                let repro = entry.run.map { "\n(repro: \($0.path)/repro.yaml)" } ?? ""
                for verdict in entry.verdicts {
                    let flaky = entry.flaky.contains(verdict.invariant)
                    let failure = JUnitReport.failureMessage(verdict.verdict, expectation: entry.expectation)
                    var body = ""
                    if let failure {
                        suiteFailures += 1
                        body += "<failure message=\"\(JUnitReport.xml((flaky ? "[flaky] " : "") + failure))\">\(JUnitReport.xml((verdict.evidence ?? "") + repro))</failure>"
                    } else if verdict.status == .notApplicable {
                        suiteSkipped += 1
                        body += "<skipped message=\"\(JUnitReport.xml(verdict.summary))\"/>"
                    }
                    let note = flaky ? "flaky: the verdict changed between identical runs of this seed\n" : ""
                    body += "<system-out>\(JUnitReport.xml(note + verdict.summary))</system-out>"
                    cases.append("    <testcase classname=\"\(classname)\" name=\"\(JUnitReport.xml(verdict.invariant)) [seed \(entry.seed)]\" time=\"\(String(format: "%.3f", entry.seconds / Double(max(1, entry.verdicts.count))))\">\(body)</testcase>")
                }
                if !entry.errors.isEmpty, entry.expectationMet == false, !entry.verdicts.contains(where: {
                    JUnitReport.failureMessage($0.verdict, expectation: entry.expectation) != nil
                }) {
                    // A run that failed its expectation through run errors alone still fails in CI.
                    suiteFailures += 1
                    cases.append("    <testcase classname=\"\(classname)\" name=\"run [seed \(entry.seed)]\" time=\"0\"><failure message=\"\(JUnitReport.xml(entry.errors.joined(separator: "; ")))\"/></testcase>")
                }
            }
            total += cases.count
            failures += suiteFailures
            skipped += suiteSkipped
            suites.append("  <testsuite name=\"\(JUnitReport.xml(tally.scenario))\" tests=\"\(cases.count)\" failures=\"\(suiteFailures)\" skipped=\"\(suiteSkipped)\" time=\"\(String(format: "%.3f", seconds))\" timestamp=\"\(JUnitReport.xml(summary.startedAt))\">\n\(cases.joined(separator: "\n"))\n  </testsuite>")
        }
        var errors = 0
        if let interruption = summary.interruption {
            errors = 1
            total += 1
            suites.append(JUnitReport.interruptedSuite(interruption, timestamp: summary.startedAt))
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lifeboat suite \(JUnitReport.xml(summary.suiteID))\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\" skipped=\"\(skipped)\" time=\"\(String(format: "%.3f", summary.seconds))\">\n\(suites.joined(separator: "\n"))\n</testsuites>\n"
    }
}
