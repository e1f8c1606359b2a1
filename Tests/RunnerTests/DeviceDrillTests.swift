import Explore
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The device drills on one seed (scripts/device-drills.sh runs ten): a torn crash at each -wal write loses an
/// acknowledged transaction on a 512-byte disk without powersafe overwrite, and never on a 4 KiB atomic SSD.
@Suite(.serialized, .ownThread) struct DeviceDrillTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func walk(_ profile: String, stopAtFailure: Bool) throws -> FaultWalk.State {
        let scratch = try Scratch("device-\(profile)")
        let file = Self.root.appendingPathComponent("Scenarios/devices/wal-on-\(profile).yaml")
        var scenario = try ScenarioParser.parse(file: file)
        #expect(scenario.faults.device?.profile == profile)
        scenario.writers.transactions = 2
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let config = FaultWalk.Config(scenarioFile: file.path, ops: [.write], path: "*.sqlite-wal", action: .crash(.torn(fill: .zeros)), stopAtFailure: stopAtFailure)
        return try FaultWalk(base: scenario, config: config, directory: scratch.path("walk"), settings: settings).run()
    }

    @Test func a512ByteDiskWithoutPowersafeOverwriteLosesACommittedTransaction() throws {
        let state = try walk("hdd-512", stopAtFailure: true)
        let first = try #require(state.firstFailing, "no N lost a transaction in \(state.rows.count) runs")
        #expect(first.violated == ["durable-after-crash"])
        // The write that tears the committed frame: the next transaction's 24-byte frame header.
        #expect(first.hit?.length == 24)
        #expect(state.rows.allSatisfy { $0.outcome != "error" })
    }

    @Test func a4KiBAtomicSSDKeepsEveryCommittedTransaction() throws {
        let state = try walk("ssd-4k-atomic", stopAtFailure: false)
        #expect(state.finished?.contains("no fault fired") == true)
        #expect(state.rows.count > 10)
        #expect(state.rows.allSatisfy { $0.outcome == "held" }, "\(state.rows.filter { $0.outcome != "held" }.map { "N=\($0.n) \($0.violated) \($0.errors)" })")
        #expect((state.coverage?.crashPointsExplored ?? 0) == state.rows.count - 1)
    }
}
