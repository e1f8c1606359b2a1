import Explore
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Synchronization
import Testing

/// Explore finds each bug of the catalog, shrinks it and hands back a repro that replays; on the correct
/// strategies, the same budget finds nothing. The turns scheduler replays the same stores from the same seed.
@Suite(.serialized, .ownThread) struct ExploreTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func settings(_ scratch: Scratch) -> ScenarioRunner.Settings {
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        return settings
    }

    @Test(arguments: ["copy-db-only", "backup-api-no-blobs", "restore-leaves-wal", "torn-copy"])
    func exploreFindsShrinksAndReplaysEachCatalogBug(_ bug: String) throws {
        let scratch = try Scratch("explore-\(bug)")
        let file = Self.root.appendingPathComponent("Scenarios/bugs/\(bug).yaml")
        var scenario = try ScenarioParser.parse(file: file)
        guard case .violation = scenario.expect else { Issue.record("\(bug) expects no violation"); return }
        // The hunt is for the documented violation (or one of its documented alternatives: a torn copy shows as a
        // corrupt database or as a state no history prefix explains), as a user narrowing `invariants:` would.
        let expected = scenario.expect.invariants
        scenario.invariants = expected
        // The catalog's writers outlast their choreography (torn-copy's checkpoint falls 1.5 s into a 3 s copy).
        scenario.writers.transactions = min(scenario.writers.transactions, 600)
        // The search's own account (runs, reductions kept, what each replay saw) goes with any failure below.
        let log = Mutex<[String]>([])
        let outcome = try Explorer(base: scenario, file: file.path, seed: 11,
                                   budget: Explorer.Budget(runs: 8, seconds: 240, shrinkRuns: 8, replays: 3), settings: settings(scratch),
                                   progress: { line in log.withLock { $0.append(line) } }).explore()
        let account = log.withLock { $0.joined(separator: "\n") }
        let found = try #require(outcome.firstFailure, "\(bug): nothing found in \(outcome.runs) runs\n\(account)")
        #expect(expected.contains { outcome.failures[$0] != nil }, "\(bug): found \(outcome.failures), expected \(expected)")
        #expect(outcome.replaysReproducing >= 1, "\(bug): the repro did not replay \(found.invariant)\n\(account)")
        let repro = try #require(outcome.repro)
        let replayed = try ScenarioParser.parse(file: URL(fileURLWithPath: repro))
        // The repro expects the failure as the scenario names it: a torn copy is either face of one bug.
        #expect(replayed.expect == .violation(expected.contains(found.invariant) ? expected.joined(separator: "|") : found.invariant))
        // Shrinking only ever makes the failing variation smaller (the variation itself may be larger than the base).
        let failing = try ScenarioParser.parse(file: URL(fileURLWithPath: found.report).appendingPathComponent("repro.yaml"))
        #expect(replayed.writers.transactions <= failing.writers.transactions)
        #expect(replayed.writers.count <= failing.writers.count)
        #expect(replayed.store.objects <= failing.store.objects)
    }

    @Test func exploreFindsNothingOnCorrectStrategies() throws {
        let scratch = try Scratch("explore-correct")
        let file = Self.root.appendingPathComponent("Scenarios/correct-strategies.yaml")
        var scenario = try ScenarioParser.parse(file: file)
        scenario.writers.transactions = 80
        let outcome = try Explorer(base: scenario, file: file.path, seed: 11,
                                   budget: Explorer.Budget(runs: 4, seconds: 240, shrinkRuns: 6, replays: 2),
                                   settings: settings(scratch)).explore()
        #expect(outcome.firstFailure == nil, "\(outcome.failures): \(outcome.firstFailure?.evidence ?? [])")
        #expect(outcome.runs == 4)
    }

    @Test func turnsSchedulerReplaysTheSameStores() throws {
        let scratch = try Scratch("turns")
        var scenario = try ScenarioParser.parse(file: Self.root.appendingPathComponent("Scenarios/smoke.yaml"))
        scenario.scheduler = "turns"
        scenario.writers.transactions = 50
        scenario.schedule[0].afterCommits = 30
        scenario.schedule[1].afterCommits = 70
        let first = try ScenarioRunner(scenario: scenario, file: "smoke", settings: settings(scratch)).run().0
        let second = try ScenarioRunner(scenario: scenario, file: "smoke", settings: settings(scratch)).run().0
        let digests = { (result: RunResult) in result.operations.compactMap { $0.details["stateDigest"] } }
        #expect(digests(first).count == 2)
        #expect(digests(first) == digests(second))
        #expect(first.expectationMet && second.expectationMet)
        // backup-api runs in lockstep with the writers: the same steps and restarts every time, and writers did
        // get in between its steps.
        let copySteps = { (result: RunResult) in
            result.operations.filter { $0.strategy == "backup-api" }.map { [$0.details["steps"], $0.details["restarts"]] }
        }
        #expect(copySteps(first) == copySteps(second))
        #expect(copySteps(first).first?.first != nil)
        let lockstep = first.events.first { $0.detail.hasPrefix("lockstep:") }
        #expect(lockstep != nil)
        #expect(lockstep.map { !$0.detail.contains(" 0 writer transaction") } ?? false, "\(lockstep?.detail ?? "")")
    }
}
