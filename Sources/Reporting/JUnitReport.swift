import Checks
import Foundation

/// `junit.xml`: one test case per scenario x invariant, so CI shows which invariant broke.
///
/// For a scenario that expects a violation, the expected invariant's case passes when it is violated (the drill
/// still demonstrates its pitfall) and fails when it held; the other invariants are reported but do not fail.
/// A run cut short by SIGINT/SIGTERM adds a `run` case with an `<error>`: its invariants were not judged, and
/// CI must not show it as a pass.
public enum JUnitReport {
    public static func render(_ results: [RunResult]) -> String {
        var suites: [String] = []
        var total = 0, failures = 0, errors = 0
        for result in results {
            var cases: [String] = []
            var suiteFailures = 0
            for verdict in result.verdicts {
                let failure = failureMessage(verdict, expectation: result.expectation)
                if failure != nil { suiteFailures += 1 }
                var body = ""
                if let failure {
                    let detail = verdict.evidence.map(FindingText.relativePaths) + (verdict.cause.map { ["cause: \($0)"] } ?? []) + (verdict.fix.map { ["fix: \($0)"] } ?? [])
                    body += "<failure message=\"\(xml(failure))\">\(xml(detail.joined(separator: "\n")))</failure>"
                } else if verdict.status == .notApplicable {
                    body += "<skipped message=\"\(xml(verdict.summary))\"/>"
                }
                body += "<system-out>\(xml(verdict.summary + (verdict.evidence.isEmpty ? "" : "\n" + verdict.evidence.joined(separator: "\n"))))</system-out>"
                cases.append("    <testcase classname=\"lifeboat.\(xml(result.scenario))\" name=\"\(xml(verdict.invariant))\" time=\"0\">\(body)</testcase>")
            }
            var suiteErrors = 0
            if let interruption = result.interruption {
                suiteErrors = 1
                let detail = ([interruption + " before its invariants could be judged"] + result.errors).joined(separator: "\n")
                cases.append("    <testcase classname=\"lifeboat.\(xml(result.scenario))\" name=\"run\" time=\"\(String(format: "%.3f", result.seconds))\"><error message=\"\(xml(interruption))\">\(xml(detail))</error></testcase>")
            }
            total += cases.count
            failures += suiteFailures
            errors += suiteErrors
            suites.append("  <testsuite name=\"\(xml(result.scenario))\" tests=\"\(cases.count)\" failures=\"\(suiteFailures)\" errors=\"\(suiteErrors)\" time=\"\(String(format: "%.3f", result.seconds))\" timestamp=\"\(xml(result.startedAt))\">\n\(cases.joined(separator: "\n"))\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lifeboat\" tests=\"\(total)\" failures=\"\(failures)\" errors=\"\(errors)\">\n\(suites.joined(separator: "\n"))\n</testsuites>\n"
    }

    /// The one-case suite a campaign cut short adds to its JUnit file.
    static func interruptedSuite(_ interruption: String, timestamp: String) -> String {
        "  <testsuite name=\"campaign\" tests=\"1\" failures=\"0\" errors=\"1\" time=\"0\" timestamp=\"\(xml(timestamp))\">\n"
            + "    <testcase classname=\"lifeboat.campaign\" name=\"complete\" time=\"0\"><error message=\"\(xml(interruption))\"/></testcase>\n  </testsuite>"
    }

    static func failureMessage(_ verdict: Verdict, expectation: String) -> String? {
        if expectation == "pass" {
            // The app's own findings are reported (system-out), not failed: the program did not cause them.
            guard verdict.status == .violated, !verdict.isAppsOwn else { return nil }
            // The finding's own words: what is lost and when, then what was checked.
            return "\(verdict.invariant) violated: " + (verdict.consequence.map { "\($0) (\(FindingText.relativePaths(verdict.summary)))" } ?? verdict.summary)
        }
        if expectation == "violation \(verdict.invariant)", verdict.status != .violated {
            return "expected \(verdict.invariant) to be violated (the drill no longer shows its pitfall); it \(verdict.status.rawValue)"
        }
        return nil
    }

    static func xml(_ text: String) -> String { PageText.xml(text) }
}
