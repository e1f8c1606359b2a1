import ArgumentParser
import Explore
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat explore SCENARIO`: hunts for a violation in seeded variations, shrinks it, checks it replays.
struct ExploreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "explore",
        abstract: "Run seeded variations of a scenario until an invariant fails; shrink it to a small repro that replays.",
        discussion: "Exit 0 when nothing failed within the budget, 1 when a failure was found (its repro.yaml is printed), 2 for bad input.")

    @Argument(help: "The scenario to vary.") var scenario: String
    @Option(help: "Most runs to try.") var runs: Int = 20
    @Option(help: "Seed of the variations.") var seed: UInt64 = 1
    @Option(help: "Seconds to spend looking (shrinking and replays come on top).") var timeLimit: Double = 600
    @Option(help: "Most runs to spend shrinking.") var shrinkRuns: Int = 40
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Scratch directory.") var scratch: String?

    func validate() throws {
        guard (1...1_000_000).contains(runs) else { throw ValidationError("--runs must be between 1 and 1000000") }
        guard timeLimit > 0, timeLimit <= 604_800 else { throw ValidationError("--time-limit must be positive and at most 604800 s (a week)") }
        guard (0...1_000_000).contains(shrinkRuns) else { throw ValidationError("--shrink-runs must be between 0 and 1000000") }
    }

    func run() throws {
        let file = URL(cliPath: scenario)
        let parsed = try ScenarioCommandSupport.load(file)
        Interruption.install()
        let settings = ScenarioCommandSupport.settings(reports: reports, scratch: scratch)
        let explorer = Explorer(base: parsed, file: file.path, seed: seed,
                                budget: Explorer.Budget(runs: runs, seconds: timeLimit, shrinkRuns: shrinkRuns),
                                settings: settings, progress: { @Sendable line in print("  " + line) })
        let outcome = try explorer.explore()
        let directory = try RunDirectory.create(root: URL(cliPath: reports), prefix: "explore-")
        try ExploreReport.write(outcome, to: directory)
        if let first = outcome.firstFailure {
            print("found: \(first.invariant) violated in run \(first.run) after \(String(format: "%.1f", outcome.foundAfterSeconds ?? 0)) s")
            print("shrunk in \(outcome.shrinkRuns) run(s): \(outcome.shrinkSteps.isEmpty ? "nothing smaller failed" : outcome.shrinkSteps.joined(separator: "; "))")
            print("repro: lifeboat run \(outcome.repro ?? "?") (\(outcome.replaysReproducing)/\(outcome.replayed) replays reproduce)")
            print("summary: \(directory.url.path)/explore.md")
            throw ExitCode(1)
        }
        print("no violation in \(outcome.runs) run(s), \(String(format: "%.1f", outcome.seconds)) s; summary: \(directory.url.path)/explore.md")
    }
}
