import Checks
import Foundation

/// `junit.xml`: one test case per scenario x invariant, so CI shows which invariant broke.
///
/// For a scenario that expects a violation, the expected invariant's case passes when it is violated (the drill
/// still demonstrates its pitfall) and fails when it held; the other invariants are reported but do not fail.
public enum JUnitReport {
    public static func render(_ results: [RunResult]) -> String {
        var suites: [String] = []
        var total = 0, failures = 0
        for result in results {
            var cases: [String] = []
            var suiteFailures = 0
            for verdict in result.verdicts {
                let failure = failureMessage(verdict, expectation: result.expectation)
                if failure != nil { suiteFailures += 1 }
                var body = ""
                if let failure {
                    let detail = verdict.evidence + (verdict.cause.map { ["cause: \($0)"] } ?? []) + (verdict.fix.map { ["fix: \($0)"] } ?? [])
                    body += "<failure message=\"\(xml(failure))\">\(xml(detail.joined(separator: "\n")))</failure>"
                } else if verdict.status == .notApplicable {
                    body += "<skipped message=\"\(xml(verdict.summary))\"/>"
                }
                body += "<system-out>\(xml(verdict.summary + (verdict.evidence.isEmpty ? "" : "\n" + verdict.evidence.joined(separator: "\n"))))</system-out>"
                cases.append("    <testcase classname=\"lifeboat.\(xml(result.scenario))\" name=\"\(xml(verdict.invariant))\" time=\"0\">\(body)</testcase>")
            }
            total += result.verdicts.count
            failures += suiteFailures
            suites.append("  <testsuite name=\"\(xml(result.scenario))\" tests=\"\(result.verdicts.count)\" failures=\"\(suiteFailures)\" time=\"\(String(format: "%.3f", result.seconds))\" timestamp=\"\(xml(result.startedAt))\">\n\(cases.joined(separator: "\n"))\n  </testsuite>")
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"lifeboat\" tests=\"\(total)\" failures=\"\(failures)\">\n\(suites.joined(separator: "\n"))\n</testsuites>\n"
    }

    static func failureMessage(_ verdict: Verdict, expectation: String) -> String? {
        if expectation == "pass" {
            // The app's own findings are reported (system-out), not failed: the program did not cause them.
            return verdict.status == .violated && !verdict.isAppsOwn ? "\(verdict.invariant) violated: \(verdict.summary)" : nil
        }
        if expectation == "violation \(verdict.invariant)", verdict.status != .violated {
            return "expected \(verdict.invariant) to be violated (the drill no longer shows its pitfall); it \(verdict.status.rawValue)"
        }
        return nil
    }

    static func xml(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default:
                if scalar.value < 0x20, scalar != "\n", scalar != "\t" { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
