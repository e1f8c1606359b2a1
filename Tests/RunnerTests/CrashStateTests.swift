import Explore
import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// Crash states from the op log: SQLite at synchronous=FULL recovers every one of them to a valid prefix with
/// every acknowledged transaction; under a drive whose fsync lies, states lose acknowledged transactions.
@Suite(.serialized) struct CrashStateTests {
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
        #expect(summary.pointsChecked == 4)
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
}
