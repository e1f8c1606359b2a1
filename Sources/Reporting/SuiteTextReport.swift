import Foundation

/// The suite summary as plain text for a terminal or a CI log: per scenario, per invariant, what was skipped
/// or not run, and the outcome line.
public enum SuiteTextReport {
    /// `folder` is how repro paths start (the suite folder's path; its id when nil).
    public static func render(_ summary: SuiteSummary, folder: String? = nil) -> String {
        let base = folder ?? summary.suiteID
        let outcome = summary.computeOutcome()
        var lines: [String] = []
        let scenarios = summary.scenarioTallies()
        let nameWidth = min(36, max(8, scenarios.map(\.scenario.count).max() ?? 8))
        lines.append("per scenario:")
        lines.append("  " + pad("scenario", nameWidth) + "  pairs  expected  UNEXPECTED  flaky  skipped  not-run   time(s)  first failing seed")
        for tally in scenarios {
            let first = tally.firstFailure.map { "seed \($0.seed): \($0.detail)" + ($0.repro.map { " — repro \(base)/\($0)" } ?? "") } ?? ""
            lines.append("  " + pad(tally.scenario, nameWidth) + String(format: "  %5d  %8d  %10d  %5d  %7d  %7d  %8.1f  ", tally.pairs, tally.asExpected,
                                                                         tally.unexpected, tally.flaky, tally.skipped, tally.notRun, tally.seconds) + first)
        }
        let invariants = summary.invariantTallies()
        if !invariants.isEmpty {
            let width = max(10, invariants.map(\.invariant.count).max() ?? 10)
            lines.append("per invariant:")
            lines.append("  " + pad("invariant", width) + "   held  violated  n/a  unexpected  flaky  first unexpected")
            for tally in invariants {
                let first = tally.firstFailure.map { "\($0.scenario) seed \($0.seed)" + ($0.repro.map { " — repro \(base)/\($0)" } ?? "") } ?? ""
                lines.append("  " + pad(tally.invariant, width) + String(format: "  %5d  %8d  %3d  %10d  %5d  ", tally.held, tally.violated, tally.notApplicable,
                                                                         tally.failures, tally.flaky) + first)
            }
        }
        let replayed = summary.entries.filter { $0.reproduction != nil }
        if !replayed.isEmpty {
            lines.append("findings replayed (--reproduce):")
            for entry in replayed {
                guard let reproduction = entry.reproduction else { continue }
                lines.append("  \(entry.scenario)@\(entry.seed): \(reproduction.invariant) \(reproduction.text)")
            }
        }
        let absent = summary.entries.filter { $0.status != .ran }
        if !absent.isEmpty {
            lines.append("skipped or not run (\(absent.count)):")
            var reasons: [String: [SuiteEntry]] = [:]
            for entry in absent { reasons["\(entry.status.rawValue): \(entry.reason ?? "")", default: []].append(entry) }
            for (reason, entries) in reasons.sorted(by: { $0.key < $1.key }) {
                let pairs = entries.prefix(12).map { "\($0.scenario)@\($0.seed)" }.joined(separator: ", ") + (entries.count > 12 ? ", ... (\(entries.count))" : "")
                lines.append("  \(reason): \(pairs)")
            }
        }
        lines.append("\(outcome.word.uppercased()) (exit \(outcome.code)): \(outcome.asExpected) of \(outcome.ran) run(s) as expected, \(outcome.unexpected) unexpected, \(outcome.flaky) flaky, \(outcome.skipped) skipped, \(outcome.notRun) not run; " + String(format: "%.1f s", summary.seconds))
        return lines.joined(separator: "\n") + "\n"
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? String(text.prefix(width)) : text + String(repeating: " ", count: width - text.count)
    }
}
