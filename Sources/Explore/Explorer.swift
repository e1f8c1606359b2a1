import Checks
import Foundation
import Reporting
import Runner
import Scenario
import SeededRandomness
import StoreModel

/// `lifeboat explore`: runs seeded variations of a scenario until an invariant fails or the budget ends, then
/// shrinks the failing scenario while the same failure remains (the invariant, or one of the alternatives the
/// scenario's own expectation names) and checks that the result replays.
public final class Explorer {
    public struct Budget: Sendable {
        public var runs: Int
        public var seconds: Double
        public var shrinkRuns: Int
        public var replays: Int
        public init(runs: Int, seconds: Double, shrinkRuns: Int = 40, replays: Int = 3) {
            self.runs = runs
            self.seconds = seconds
            self.shrinkRuns = shrinkRuns
            self.replays = replays
        }
    }

    public struct Outcome: Sendable, Codable {
        public var schema = "lifeboat.explore/1"
        public var scenario: String
        public var seed: UInt64
        public var runs = 0
        public var seconds = 0.0
        /// Invariant -> how many runs violated it.
        public var failures: [String: Int] = [:]
        public var firstFailure: FailureRecord?
        public var shrinkSteps: [String] = []
        public var shrinkRuns = 0
        public var repro: String?
        public var replayed = 0
        public var replaysReproducing = 0
        public var replaySeconds: [Double] = []
        public var foundAfterSeconds: Double?
        /// Fault coverage summed over the search runs (not shrinking or replays): what the variations reached.
        public var coverage: RunCoverage?
    }

    public struct FailureRecord: Sendable, Codable {
        public var run: Int
        public var invariant: String
        public var evidence: [String]
        public var report: String
    }

    let base: Scenario
    /// The invariants the scenario expected to fail, when it named alternatives (`violation A|B`): one failure
    /// that shows as either, depending on the run (a torn copy reads as a corrupt database or as a state no
    /// history explains). Shrinking and replays accept any of them, as the scenario itself does.
    let faces: [String]
    let file: String
    let seed: UInt64
    let budget: Budget
    let settings: ScenarioRunner.Settings
    let progress: (@Sendable (String) -> Void)?

    public init(base: Scenario, file: String, seed: UInt64, budget: Budget, settings: ScenarioRunner.Settings,
                progress: (@Sendable (String) -> Void)? = nil) {
        var base = base
        faces = base.expect.invariants
        // Explore hunts violations: every invariant counts, whatever the drill expected.
        base.expect = .pass
        self.base = base
        self.file = file
        self.seed = seed
        self.budget = budget
        self.settings = settings
        self.progress = progress
    }

    func run(_ scenario: Scenario) throws -> (RunResult, RunDirectory) {
        var quiet = settings
        quiet.progress = nil
        let run = try ScenarioRuns.run(scenario, file: file, settings: quiet)
        let (result, directory) = (run.result, run.directory)
        // A program that could not start judges nothing: exploring on would only repeat it (exit 2).
        if let reason = result.environmentError { throw RunError.environment("not run: environment error: \(reason)") }
        return (result, directory)
    }

    static func violated(_ result: RunResult) -> [Verdict] { result.verdicts.filter { $0.status == .violated } }

    /// The invariants that count as the same failure as `invariant`: its alternatives in the scenario's own
    /// expectation, or itself.
    func sameFailure(_ invariant: String) -> [String] { faces.contains(invariant) ? faces : [invariant] }

    /// Whether the run failed the way `invariant` did.
    func fails(_ result: RunResult, as invariant: String) -> Bool {
        let accepted = sameFailure(invariant)
        return Self.violated(result).contains { accepted.contains($0.invariant) }
    }

    public func explore() throws -> Outcome {
        let started = Date()
        var outcome = Outcome(scenario: base.name, seed: seed)
        var random = SeededRandom(seed: seed)
        var failing: (Scenario, String)?
        // The runs go through the one loop, one after another: each draws its variation from the seed's sequence,
        // and the first failure (or the time budget, or an interruption) ends the search.
        _ = try RunLoop().map(Array(0..<max(0, budget.runs)), until: { $0 }) { _, _ -> Bool in
            guard Date().timeIntervalSince(started) < budget.seconds, !Interruption.requested else { return true }
            let candidate = outcome.runs == 0 ? base : Variation.draw(from: base, random: &random)
            let (result, directory) = try run(candidate)
            outcome.runs += 1
            outcome.coverage = RunCoverage.merged([outcome.coverage, result.coverage].compactMap { $0 })
            for verdict in Self.violated(result) { outcome.failures[verdict.invariant, default: 0] += 1 }
            let left = max(0, budget.seconds - Date().timeIntervalSince(started))
            progress?("run \(outcome.runs)/\(budget.runs): \(Self.violated(result).map(\.invariant).joined(separator: ", ").isEmpty ? "no violation" : Self.violated(result).map(\.invariant).joined(separator: ", ")); \(outcome.failures.count) distinct failure(s); \(Int(left)) s left")
            if let first = Self.violated(result).first {
                failing = (candidate, first.invariant)
                outcome.foundAfterSeconds = Date().timeIntervalSince(started)
                outcome.firstFailure = FailureRecord(run: outcome.runs, invariant: first.invariant, evidence: Array(first.evidence.prefix(5)),
                                                     report: directory.url.path)
            }
            return failing != nil
        }
        if let (scenario, invariant) = failing {
            var trail = [scenario]
            var shrunk = try shrink(scenario, invariant: invariant, outcome: &outcome, trail: &trail)
            // Prefer a repro under the turns scheduler, which replays the same interleaving from the seed.
            if shrunk.scheduler != "turns" {
                var turns = shrunk
                turns.scheduler = "turns"
                let (result, _) = try run(turns)
                outcome.shrinkRuns += 1
                if fails(result, as: invariant) {
                    shrunk = turns
                    outcome.shrinkSteps.append("scheduler free -> turns (deterministic replay)")
                }
            }
            try replay(shrunk, invariant: invariant, outcome: &outcome)
            // A race can shrink to a scenario whose failure was luck (a step dropped whose work a timing accident
            // did on the runs that kept the reduction). Rather than hand back a repro that does not replay, step
            // back one reduction at a time, down to the scenario the search itself found failing.
            var fallbacks: [(scenario: Scenario, step: String)] = []
            for (index, earlier) in trail.enumerated().reversed() where earlier != shrunk && !fallbacks.contains(where: { $0.scenario == earlier }) {
                fallbacks.append((earlier, index == 0 ? "back to the scenario found failing" : "back to reduction \(index) of \(trail.count - 1)"))
            }
            for (earlier, step) in fallbacks where outcome.replaysReproducing == 0 && !Interruption.requested {
                progress?("replay: the repro did not reproduce \(invariant); stepping \(step)")
                outcome.shrinkSteps.append("\(step): the smaller scenario did not replay")
                outcome.replayed = 0
                outcome.replaysReproducing = 0
                outcome.replaySeconds = []
                outcome.repro = nil
                try replay(earlier, invariant: invariant, outcome: &outcome)
            }
        }
        outcome.seconds = Date().timeIntervalSince(started)
        return outcome
    }

    /// Greedy shrinking: take the first smaller scenario that still violates `invariant`, repeat.
    ///
    /// Under the free scheduler a violation can be luck of timing, and a reduction accepted on one lucky run
    /// ends as a repro that rarely replays; so there a candidate must fail twice in a row to be kept. Under
    /// turns the interleaving comes from the seed and one run decides.
    func shrink(_ scenario: Scenario, invariant: String, outcome: inout Outcome, trail: inout [Scenario]) throws -> Scenario {
        let shrunk = try Shrinker.greedy(scenario, candidates: Shrinker.candidates, budget: budget.shrinkRuns - outcome.shrinkRuns,
                                         stop: { Interruption.requested },
                                         accepted: { label, _ in progress?("shrink: \(label) still violates \(invariant)") }) { _, candidate in
            var stillFails = true
            var runs = 0
            for _ in 0..<(candidate.scheduler == "turns" ? 1 : 2) where stillFails {
                let (result, _) = try run(candidate)
                runs += 1
                stillFails = fails(result, as: invariant)
            }
            return (stillFails, runs, nil)
        }
        outcome.shrinkRuns += shrunk.runs
        outcome.shrinkSteps += shrunk.steps
        trail += shrunk.trail.dropFirst()
        return shrunk.scenario
    }

    /// Runs the shrunk scenario again from its repro.yaml and counts how often the verdict repeats.
    func replay(_ scenario: Scenario, invariant: String, outcome: inout Outcome) throws {
        var expecting = scenario
        expecting.expect = .violation(sameFailure(invariant).joined(separator: "|"))
        expecting.invariants = []
        var reproFile: URL?
        for attempt in 0..<budget.replays {
            let replayScenario: Scenario
            if let reproFile { replayScenario = try ScenarioParser.parse(file: reproFile) } else { replayScenario = expecting }
            let started = Date()
            let (result, directory) = try run(replayScenario)
            outcome.replaySeconds.append(Date().timeIntervalSince(started))
            outcome.replayed += 1
            if result.expectationMet {
                outcome.replaysReproducing += 1
            } else {
                // Say what the replay saw instead, so a repro that does not replay can be read, not guessed.
                let violated = Self.violated(result).map(\.invariant)
                let saw = (violated.isEmpty ? ["every invariant held"] : ["violated " + violated.joined(separator: ", ")]) + result.errors.prefix(2)
                progress?("replay \(attempt + 1): did not reproduce \(invariant): \(saw.joined(separator: "; ")) (\(directory.url.path))")
            }
            if attempt == 0 {
                reproFile = directory.url.appendingPathComponent("repro.yaml")
                outcome.repro = reproFile?.path
            }
        }
        progress?("replay: \(outcome.replaysReproducing)/\(outcome.replayed) runs of \(outcome.repro ?? "?") reproduce \(invariant)")
    }
}
