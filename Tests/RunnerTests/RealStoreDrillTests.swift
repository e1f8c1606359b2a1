import Foundation
import GRDB
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// Drills on a user's own store (`store: {from: ...}`): writers derived from the store's layout, backups, a
/// restore, and every invariant, on a store Core Data wrote.
@Suite(.serialized, .ownThread) struct RealStoreDrillTests {
    /// The shipped drill on the Xcode Server fixture holds every invariant seed after seed (a CI-sized load: 40
    /// transactions per writer), and its fixture is only read.
    @Test func realStoreDrillHoldsOnTenSeeds() throws {
        let scratch = try Scratch("real-drill")
        let file = DrillTests.scenarios.appendingPathComponent("real-store-xcserver.yaml")
        var scenario = try ScenarioParser.parse(file: file)
        let fixture = URL(fileURLWithPath: try #require(scenario.store.from)).deletingLastPathComponent()
        let before = FolderDigest.of(fixture)
        scenario.writers.transactions = 40
        scenario.schedule = scenario.schedule.map { step in
            var step = step
            if let commits = step.afterCommits { step.afterCommits = commits / 3 }
            return step
        }
        for seed in 1...10 as ClosedRange<UInt64> {
            scenario.seed = seed
            let (result, _) = try DrillTests.run(scenario, file: file.path, scratch: scratch)
            let violated = result.verdicts.filter { $0.status == .violated }
            #expect(result.expectationMet, "seed \(seed): \(violated.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" })")
            #expect(result.errors.isEmpty, "seed \(seed): \(result.errors)")
            #expect(result.verdicts.contains { $0.invariant == "restore-equals-backup" && $0.status == .held })
        }
        #expect(FolderDigest.of(fixture) == before)
    }

    /// A store whose binary columns allow external storage (they hold Core Data's 0x01/0x02 markers): the layout
    /// writers store large values in `_EXTERNAL_DATA`, and the backups must carry them (`blobs-carried`). The backups
    /// run once the writers are done: a replace under live attachment writers can miss files, as Core Data's does
    /// (it stages the support folder before the page copy; `replace-under-attachment-writers.yaml` shows that race).
    @Test func layoutWritersStoreExternalDataWhereAColumnAllowsIt() throws {
        let scratch = try Scratch("real-drill-blobs")
        let store = try scratch.store("user/Library.sqlite", objects: 80, blobFraction: 0.5, blobSize: 110_000)
        // Without Lifeboat's model in Z_MODELCACHE the store is one "an app wrote": operated on from its layout.
        let queue = try DatabaseQueue(path: store.path)
        try queue.writeWithoutTransaction { try $0.execute(sql: "DELETE FROM Z_MODELCACHE") }
        try queue.close()
        let base = DrillTests.scenarios.appendingPathComponent("real-store-xcserver.yaml").path
        let file = scratch.path("blobs.yaml")
        try """
            name: layout-blobs
            extends: \(base)
            store: {from: user/Library.sqlite}
            writers: {transactions: 40, blob_fraction: 0.6, blob_size: 110KiB}
            schedule:
              - {backup: replace, after_writers: true}
              - {backup: migrate, after_writers: true}
              - {restore: replace-then-readd}
            """.write(to: file, atomically: true, encoding: .utf8)
        let scenario = try ScenarioParser.parse(file: file)
        let (result, _) = try DrillTests.run(scenario, file: file.path, scratch: scratch)
        let violated = result.verdicts.filter { $0.status == .violated }
        #expect(result.expectationMet, "\(violated.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" })")
        let blobs = result.verdicts.filter { $0.invariant == "blobs-carried" }
        #expect(!blobs.isEmpty && blobs.allSatisfy { $0.status == .held })
        #expect(blobs.contains { !$0.summary.contains(" 0 external references") })
    }

    @Test func storeFromIsResolvedAgainstTheScenarioFileAndChecked() throws {
        let scratch = try Scratch("real-drill-parse")
        let file = scratch.path("s/drill.yaml")
        try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try "name: x\nstore: {from: ../none.sqlite}\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(file: file) }
        let store = try RealStoreFixtures.copy("bergier-v2.0.0", into: scratch.path("stores"))
        try "name: x\nstore: {from: ../stores/\(store.lastPathComponent)}\n".write(to: file, atomically: true, encoding: .utf8)
        #expect(try ScenarioParser.parse(file: file).store.from == store.standardizedFileURL.path)
    }
}
