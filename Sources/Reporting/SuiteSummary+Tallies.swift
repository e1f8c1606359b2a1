import Checks
import Foundation

/// Per-scenario and per-invariant counts, and the campaign's outcome (its exit code), derived from the entries.
extension SuiteSummary {
    /// How one scenario did over its seeds.
    public struct ScenarioTally: Sendable, Codable, Equatable {
        public var scenario: String
        public var expectation: String
        public var pairs: Int
        public var ran: Int
        public var asExpected: Int
        public var unexpected: Int
        public var flaky: Int
        public var skipped: Int
        public var notRun: Int
        /// Seconds spent running it (reruns included).
        public var seconds: Double
        /// The lowest seed whose run did not show what the scenario expects, with the run's repro.
        public var firstFailure: Failure?
    }

    /// How one invariant did over every run in the suite.
    public struct InvariantTally: Sendable, Codable, Equatable {
        public var invariant: String
        public var held: Int
        public var violated: Int
        public var notApplicable: Int
        /// Runs where its verdict was not the one expected (a violation of a `pass` drill, or a pitfall drill
        /// that no longer shows its pitfall), as JUnit counts them.
        public var failures: Int
        public var flaky: Int
        public var firstFailure: Failure?
    }

    public struct Failure: Sendable, Codable, Equatable {
        public var scenario: String
        public var seed: UInt64
        /// `runs/<run-id>/repro.yaml`, relative to the suite folder.
        public var repro: String?
        public var detail: String
    }

    /// The summary with `scenarios`, `invariants` and `outcome` filled from the entries.
    public func withTallies() -> SuiteSummary {
        var copy = self
        copy.scenarios = scenarioTallies()
        copy.invariants = invariantTallies()
        copy.outcome = computeOutcome()
        return copy
    }

    public func scenarioTallies() -> [ScenarioTally] {
        var order: [String] = campaign.scenarios.map(\.name)
        for entry in entries where !order.contains(entry.scenario) { order.append(entry.scenario) }
        return order.compactMap { name in
            let mine = entries.filter { $0.scenario == name }
            guard !mine.isEmpty else { return nil }
            let failing = mine.filter { $0.status == .ran && $0.expectationMet == false }.min { $0.seed < $1.seed }
            return ScenarioTally(
                scenario: name, expectation: mine[0].expectation, pairs: mine.count,
                ran: mine.filter { $0.status == .ran }.count,
                asExpected: mine.filter { $0.expectationMet == true }.count,
                unexpected: mine.filter { $0.expectationMet == false }.count,
                flaky: mine.filter(\.isFlaky).count,
                skipped: mine.filter { $0.status == .skipped }.count,
                notRun: mine.filter { $0.status == .notRun }.count,
                seconds: mine.reduce(0) { $0 + $1.seconds },
                firstFailure: failing.map { entry in
                    Failure(scenario: name, seed: entry.seed, repro: entry.run.map { "\($0.path)/repro.yaml" },
                            detail: entry.run.map { $0.violated.isEmpty ? "nothing violated (expected \(entry.expectation))" : "violated: " + $0.violated.joined(separator: ", ") } ?? "")
                })
        }
    }

    public func invariantTallies() -> [InvariantTally] {
        var tallies: [String: InvariantTally] = [:]
        var order: [String] = []
        let ordered = entries.filter { $0.status == .ran }.sorted { ($0.seed, $0.scenario) < ($1.seed, $1.scenario) }
        for entry in ordered {
            for verdict in entry.verdicts {
                if tallies[verdict.invariant] == nil {
                    order.append(verdict.invariant)
                    tallies[verdict.invariant] = InvariantTally(invariant: verdict.invariant, held: 0, violated: 0, notApplicable: 0,
                                                                failures: 0, flaky: 0, firstFailure: nil)
                }
                guard var tally = tallies[verdict.invariant] else { continue }
                switch verdict.status {
                case .held: tally.held += 1
                case .violated: tally.violated += 1
                case .notApplicable: tally.notApplicable += 1
                }
                if entry.flaky.contains(verdict.invariant) { tally.flaky += 1 }
                if let message = JUnitReport.failureMessage(Verdict(verdict.invariant, verdict.status, verdict.summary), expectation: entry.expectation) {
                    tally.failures += 1
                    if tally.firstFailure == nil {
                        tally.firstFailure = Failure(scenario: entry.scenario, seed: entry.seed,
                                                     repro: entry.run.map { "\($0.path)/repro.yaml" }, detail: message)
                    }
                }
                tallies[verdict.invariant] = tally
            }
        }
        return order.sorted().compactMap { tallies[$0] }
    }

    /// 1 when a run did not show what it expects; else 3 when a pair was skipped or not run; else 0.
    public func computeOutcome() -> Outcome {
        let ran = entries.filter { $0.status == .ran }
        let unexpected = ran.filter { $0.expectationMet == false }.count
        let skipped = entries.filter { $0.status == .skipped }.count
        let notRun = entries.filter { $0.status == .notRun }.count
        let code: Int32 = unexpected > 0 ? 1 : (skipped + notRun > 0 ? 3 : 0)
        let word = code == 1 ? "failed" : code == 3 ? "incomplete" : "passed"
        return Outcome(code: code, word: word, ran: ran.count, asExpected: ran.count - unexpected, unexpected: unexpected,
                       flaky: entries.filter(\.isFlaky).count, skipped: skipped, notRun: notRun)
    }
}
