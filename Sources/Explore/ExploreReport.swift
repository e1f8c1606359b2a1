import Foundation
import Reporting

/// Writes `explore.json` and `explore.md`.
public enum ExploreReport {
    public static func write(_ outcome: Explorer.Outcome, to run: RunDirectory) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try run.write("explore.json", String(decoding: try encoder.encode(outcome), as: UTF8.self))
        var lines = ["# Lifeboat explore: \(outcome.scenario) (seed \(outcome.seed))", "",
                     "\(outcome.runs) run(s) in \(String(format: "%.1f", outcome.seconds)) s; failures: \(outcome.failures.isEmpty ? "none" : outcome.failures.sorted { $0.key < $1.key }.map { "\($0.key) x\($0.value)" }.joined(separator: ", "))", ""]
        if let first = outcome.firstFailure {
            lines += ["## First failure", "", "Run \(first.run), after \(String(format: "%.1f", outcome.foundAfterSeconds ?? 0)) s: **\(first.invariant)** violated (report \(first.report)).", ""]
            lines += first.evidence.map { "- \($0)" }
            lines += ["", "## Shrinking", "", "\(outcome.shrinkRuns) run(s); kept: " + (outcome.shrinkSteps.isEmpty ? "nothing smaller failed" : outcome.shrinkSteps.joined(separator: "; ")), ""]
            lines += ["## Repro", "", "`lifeboat run \(outcome.repro ?? "?")`: \(outcome.replaysReproducing) of \(outcome.replayed) replays reproduce it; replay times " + outcome.replaySeconds.map { String(format: "%.1f s", $0) }.joined(separator: ", ")]
        }
        lines += CoverageTable.markdown(outcome.coverage)
        try run.write("explore.md", lines.joined(separator: "\n") + "\n")
    }
}
