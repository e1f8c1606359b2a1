@testable import Explore
import Checks
import Foundation
import Reporting
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// Crash states from the op log: SQLite at synchronous=FULL recovers every one of them to a valid prefix with
/// every acknowledged transaction; under a drive whose fsync lies, states lose acknowledged transactions.
@Suite(.serialized, .ownThread) struct CrashStateTests {
    func scenario(_ name: String) throws -> Scenario {
        var scenario = try ScenarioParser.parse(file: DrillTests.scenarios.appendingPathComponent(name))
        scenario.writers.transactions = 40
        scenario.schedule = []
        return scenario
    }

    func settings(_ scratch: Scratch) -> ScenarioRunner.Settings {
        ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
    }

    @Test func everyStateOfACorrectRunRecovers() throws {
        let scratch = try Scratch("states-ok")
        let (summary, _) = try CrashStateRun.run(try scenario("crash-durable.yaml"), file: "crash-durable", settings: settings(scratch),
                                                 maxPoints: 4, seed: 3)
        #expect(summary.pointsChecked == 4 + 1, "the chosen points and the end of the log")
        #expect(summary.statesChecked > summary.pointsChecked, "variants beyond keep-none were enumerated")
        #expect(summary.statesFailed == 0, "\(summary.failures.prefix(2))")
        #expect(summary.variants["prefix"] ?? 0 > 0)
    }

    @Test func lyingFsyncLosesAcknowledgedTransactionsInSomeState() throws {
        let scratch = try Scratch("states-lie")
        let (summary, _) = try CrashStateRun.run(try scenario("fsync-lies.yaml"), file: "fsync-lies", settings: settings(scratch),
                                                 maxPoints: 4, seed: 3)
        #expect(summary.statesFailed > 0)
        #expect(summary.failures.first?.problems.contains { $0.contains("acknowledged before this point") } == true)
    }

    /// The fast path (states reused by operation sequence and by recovered pages) gives every state the verdict
    /// a fresh examination gives it, on one recorded log with failing states (a lying fsync) and passing ones.
    @Test func reusedExaminationsGiveTheVerdictsOfFreshOnes() throws {
        let scratch = try Scratch("states-reuse")
        var scenario = try scenario("fsync-lies.yaml")
        scenario.writers.transactions = 25
        let recording = try CrashStateRun.record(scenario, file: "fsync-lies", settings: settings(scratch))
        defer { recording.remove() }
        var fast: [(CrashStateEnumerator.State, [String])] = []
        var fresh: [(CrashStateEnumerator.State, [String])] = []
        let fastSummary = try recording.enumerator.run(scratch: recording.states, maxPoints: 12, seed: 5, reuse: true,
                                                           verdict: { fast.append(($0, $1)) })
        let freshSummary = try recording.enumerator.run(scratch: recording.states, maxPoints: 12, seed: 5, reuse: false,
                                                            verdict: { fresh.append(($0, $1)) })
        #expect(fast.count == fresh.count)
        #expect(fast.count == fastSummary.statesChecked)
        for (one, other) in zip(fast, fresh) {
            #expect(one.0 == other.0)
            #expect(one.1 == other.1, "\(one.0.variant) at \(one.0.point)")
        }
        #expect(freshSummary.statesExamined == freshSummary.statesChecked)
        #expect(fastSummary.statesExamined + fastSummary.statesReused == fastSummary.statesChecked)
        #expect(fastSummary.statesReused > 0, "identical states were recognised")
        #expect(fastSummary.statesSameOperations + fastSummary.statesSameContent == fastSummary.statesReused,
                "every reused state is counted under the one reduction that skipped it")
        #expect(freshSummary.statesSameOperations == 0 && freshSummary.statesSameContent == 0)
        #expect(fastSummary.statesFailed == freshSummary.statesFailed)
        #expect(freshSummary.statesFailed > 0, "the comparison covers failing states too")
        #expect(fastSummary.statesFailed < fastSummary.statesChecked, "and passing ones")
    }

    /// The run's coverage counts the states, in its JSON and Markdown reports.
    @Test func theRunCoverageCountsTheStates() throws {
        let scratch = try Scratch("states-coverage")
        let (summary, result) = try CrashStateRun.run(try scenario("crash-durable.yaml"), file: "crash-durable", settings: settings(scratch),
                                                      maxPoints: 2, seed: 1)
        #expect(result.coverage?.crashStatesChecked == summary.statesChecked)
        #expect(result.coverage?.crashStatesExamined == summary.statesExamined)
        let markdown = MarkdownReport.render(result)
        #expect(markdown.contains("\(summary.statesChecked) crash states checked"))
    }
}

/// Crash states of a run with a restore: from the restore's start on, the backup it restores is a right state (a
/// restore rolls the store back on purpose); once it has reported success, only that backup is.
@Suite(.serialized, .ownThread) struct CrashStateRestoreTests {
    /// A correct restore (copied, synced, renamed, the folder synced) is not reported as lost commits at the end of
    /// the log, where the enumerator used to hold the restored store to every commit acknowledged before it.
    @Test func aCorrectRestoreIsNotReportedAsLostCommits() throws {
        let scratch = try Scratch("states-restore")
        let file = DrillTests.scenarios.appendingPathComponent("restore-script-syncs.yaml")
        let scenario = try ScenarioParser.parse(file: file)
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        let (summary, _) = try CrashStateRun.run(scenario, file: file.path, settings: settings, maxPoints: 4, seed: 1)
        let rolledBack = summary.failures.filter { $0.problems.contains { $0.contains("acknowledged before this point") } }
        #expect(rolledBack.isEmpty, "\(rolledBack.prefix(2))")
    }

    @Test func theRestoredBackupIsRightFromTheRestoresStartAndOnlyItOnceItReportedSuccess() {
        let oracle = Oracle(transactions: [], initial: [:])
        let acknowledged = CrashStateAcknowledgements(oracle)
        let restore = CrashStateRestore(name: "restore-1", start: 5, end: 6, backup: [.init(writer: 1, prefix: 10)])
        var old = CrashStateExamination()
        old.reflected = [.init(writer: 1, prefix: 20)]
        var restored = CrashStateExamination()
        restored.reflected = [.init(writer: 1, prefix: 10)]
        #expect(old.problems(at: 5.5, acknowledgements: acknowledged, restores: [restore]).isEmpty, "the old store, while the restore runs")
        #expect(restored.problems(at: 5.5, acknowledgements: acknowledged, restores: [restore]).isEmpty)
        #expect(restored.problems(at: 7, acknowledgements: acknowledged, restores: [restore]).isEmpty)
        let lost = old.problems(at: 7, acknowledgements: acknowledged, restores: [restore])
        #expect(lost.first?.contains("restore-1 reported success at 6.000 s, but the store is not the backup it restored") == true, "\(lost)")
    }
}
