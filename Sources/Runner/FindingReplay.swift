import Foundation
import Reporting
import Scenario

/// Replays a scenario several times and counts how often it shows a verdict: the one mechanism behind
/// `lifeboat replay --times N`, a campaign's `--reproduce N` and the matrix's `--reproduce N`. A finding that
/// depends on a race then says how often it comes back ("reproduced 2/3"), so a reader can tell a deterministic
/// finding from a 1-in-3 race.
public enum FindingReplay {
    /// Runs `scenario` `times` times with `settings`; `each` sees every round (1-based), its result, report folder
    /// and seconds. Returns how many rounds met the scenario's expectation. Stops early on an interruption, and
    /// after a round whose program could not start (`RunResult.environmentError`): that is no replay at all, and
    /// the next would not start either; the caller reports it as "not run", never as "did not reproduce".
    @discardableResult
    public static func replay(_ scenario: Scenario, file: String, times: Int, settings: ScenarioRunner.Settings,
                              each: (Int, RunResult, RunDirectory, Double) -> Void = { _, _, _, _ in }) throws -> (reproduced: Int, ran: Int) {
        // A round is nil when an interruption came before or during it (not counted); the loop stops there, and
        // after a round whose program could not start.
        let rounds = try RunLoop().map(Array(1...max(1, times)), until: { $0?.environmentError != nil || $0 == nil }) { round, _ -> RunResult? in
            if Interruption.requested { return nil }
            let started = Date()
            let run = try ScenarioRuns.run(scenario, file: file, settings: settings)
            if Interruption.requested { return nil }
            each(round, run.result, run.directory, Date().timeIntervalSince(started))
            return run.result
        }.compactMap { $0 }
        return (rounds.filter(\.expectationMet).count, rounds.count)
    }

    /// The invariant a run's finding is about: the violation the scenario expects when it showed it, else the
    /// first invariant violated; nil for a run that violated nothing.
    public static func finding(of result: RunResult, scenario: Scenario) -> String? {
        let violated = result.verdicts.filter { $0.status == .violated }.map(\.invariant)
        if let name = violated.first(where: scenario.expect.invariants.contains) { return name }
        return violated.first
    }

    /// How often the finding of `result` comes back in `times` identical runs (same scenario, same seed): each
    /// replay expects the violation of that invariant. Nil when the run found nothing or `times` is 0.
    public static func rate(of result: RunResult, scenario: Scenario, file: String, times: Int,
                            settings: ScenarioRunner.Settings) throws -> Reproduction? {
        guard times > 0, let invariant = finding(of: result, scenario: scenario) else { return nil }
        var again = scenario
        again.expect = .violation(invariant)
        let (reproduced, ran) = try replay(again, file: file, times: times, settings: settings)
        return Reproduction(invariant: invariant, reproduced: reproduced, times: ran)
    }
}
