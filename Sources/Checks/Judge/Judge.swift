import Foundation

/// The one judge: turns a run record into one verdict per invariant and says whether the run met its
/// expectation. Pure: the same record always gives the same verdicts (`lifeboat judge RUN_DIR` re-judges a
/// stored run this way).
public enum Judge {
    public struct Judgement: Sendable {
        /// One verdict per selected invariant, the program's first, then the app's own.
        public var verdicts: [Verdict]
        public var expectationMet: Bool
        /// The run's own errors, with the oracle's (two rounds sharing an identity) added.
        public var errors: [String]
    }

    public static func judge(_ record: RunRecord) -> Judgement {
        let run = JudgedRun(record)
        let plan = record.plan
        let named = Set(plan.invariants + plan.expectedViolations)
        // The scenario's invariants (all by default); the app's own are always reported, apart unless named.
        let selected = InvariantRegistry.all.filter { invariant in
            invariant.owner == .app || (plan.invariants.isEmpty ? invariant.judgedByDefault : false) || named.contains(invariant.name)
        }
        let verdicts: [Verdict]
        if let reason = record.environmentError {
            verdicts = selected.map { Verdict($0.name, .notApplicable, "not run: environment error: \(reason)", owner: $0.owner) }
        } else {
            verdicts = selected.map { invariant in
                var verdict = Verdict.combine(invariant.name, invariant.check(run))
                if verdict.status == .notApplicable, !verdict.summary.hasPrefix("not exercised") {
                    verdict.summary = "not exercised: " + (verdict.summary.isEmpty || verdict.summary == Verdict.nothingChecked ? invariant.notExercised(run) : verdict.summary)
                }
                // The app's own findings are reported apart, unless the scenario names the invariant: then it is
                // judged like any other.
                verdict.owner = invariant.owner == .app && !named.contains(invariant.name) ? .app : nil
                if verdict.status == .violated {
                    verdict.fix = invariant.fix
                    verdict.consequence = invariant.consequence
                }
                return verdict
            }
        }
        let collisions = run.oracles.enumerated().flatMap { round, oracle in oracle.collisions.map { "round \(round): \($0)" } }
        let errors = record.errors + collisions
        return Judgement(verdicts: verdicts, expectationMet: met(verdicts, errors: errors, record: record), errors: errors)
    }

    /// `pass`: no run error and no violation, the app's own findings aside (the scenario did not name them);
    /// `violation A|B`: one of them violated. A run that met an environment error met nothing.
    static func met(_ verdicts: [Verdict], errors: [String], record: RunRecord) -> Bool {
        guard record.environmentError == nil else { return false }
        let plan = record.plan
        let expected = plan.expectedViolations
        if expected.isEmpty {
            return errors.isEmpty && verdicts.allSatisfy { $0.status != .violated || $0.isAppsOwn }
        }
        return verdicts.contains { expected.contains($0.invariant) && $0.status == .violated }
    }
}
