import Scenario

/// The one shrinking loop, behind `explore` and `try --deep`'s repros: Hypothesis-style greedy shrinking. Of the
/// candidates of the current scenario, most reducing first, the first that still fails the same way is taken and
/// the search starts over from it, until no candidate does, the run budget is spent or `stop` says so; the
/// smallest so far is kept either way.
extension Shrinker {
    /// What a shrink ended with: the smallest scenario that still failed, the accepted steps in order (their
    /// labels), every scenario accepted on the way (the first is the start), the runs it took, and whether it
    /// stopped because the budget ran out (false: no candidate of the last one failed the same way, or `stop`).
    public struct Shrunk: Sendable {
        public var scenario: Scenario
        public var steps: [String] = []
        public var trail: [Scenario]
        public var runs = 0
        public var budgetSpent = false
    }

    /// Shrinks `start` with `candidates`: `stillFails` runs a candidate, given with its label (as many times as the caller's policy
    /// needs to be sure) and says whether it failed the same way and how many runs that took, and, when what
    /// failed was the candidate with one more change (`try --deep`'s point aimed again at the same call), that
    /// scenario and its label, kept instead; at most `budget` runs in all. `accepted` sees each step taken. With `retryingRejected` false, a reduction rejected once (the
    /// same label: the same part from the same value to the same value) is not run again in a later pass, which
    /// spends a small budget on reductions not yet tried (`try --deep`'s repros).
    public static func greedy(_ start: Scenario, candidates: (Scenario) throws -> [(String, Scenario)], budget: Int,
                              retryingRejected: Bool = true,
                              stop: () -> Bool = { false }, accepted: (String, Scenario) -> Void = { _, _ in },
                              stillFails: (String, Scenario) throws -> (fails: Bool, runs: Int, instead: (String, Scenario)?)) rethrows -> Shrunk {
        var shrunk = Shrunk(scenario: start, trail: [start])
        var rejected: Set<String> = []
        var improved = true
        while improved, !stop() {
            improved = false
            for (label, candidate) in try candidates(shrunk.scenario) where retryingRejected || !rejected.contains(label) {
                guard shrunk.runs < budget else {
                    shrunk.budgetSpent = true
                    return shrunk
                }
                if stop() { return shrunk }
                let (fails, runs, instead) = try stillFails(label, candidate)
                shrunk.runs += runs
                if fails {
                    let (label, candidate) = instead ?? (label, candidate)
                    shrunk.scenario = candidate
                    shrunk.trail.append(candidate)
                    shrunk.steps.append(label)
                    accepted(label, candidate)
                    improved = true
                    break
                }
                rejected.insert(label)
            }
        }
        return shrunk
    }
}
