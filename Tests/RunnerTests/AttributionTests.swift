import Checks
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// Who lost what, on real runs: a careful backup program is never blamed for what the app itself loses in a
/// power cut, a restore is judged against the backup it was given, and a stored record judges to the verdicts
/// the run reported.
@Suite(.serialized, .ownThread) struct AttributionTests {
    static func run(_ name: String, seed: UInt64, scratch: Scratch) throws -> (RunResult, RunDirectory) {
        let file = DrillTests.scenarios.appendingPathComponent(name)
        var scenario = try ScenarioParser.parse(file: file)
        scenario.seed = seed
        return try DrillTests.run(scenario, file: file.path, scratch: scratch)
    }

    @Test(arguments: [1, 2] as [UInt64])
    func aCarefulBackupIsNotBlamedForTheAppsOwnLosses(seed: UInt64) throws {
        let scratch = try Scratch("careful-\(seed)")
        let (result, directory) = try Self.run("careful-backup-power-cut.yaml", seed: seed, scratch: scratch)
        let against = result.verdicts.filter { $0.status == .violated && !$0.isAppsOwn }
        #expect(result.expectationMet && against.isEmpty, "\(against)")
        for name in ["backup-completes", "backup-durable", "durable-after-crash", "live-store-unaffected"] {
            #expect(result.verdicts.first { $0.invariant == name }?.status == .held, "\(name)")
        }
        let app = try #require(result.verdicts.first { $0.invariant == "app-durable" })
        #expect(app.isAppsOwn)
        if app.status == .violated {
            // The app's lost operations are named, with the writer that made them.
            #expect(app.cause?.contains("writer-") == true && app.evidence.contains { $0.contains("_EXTERNAL_DATA") }, "\(app)")
        }
        // The stored record judges to the same verdicts, running nothing.
        let record = try RecordFile.read(directory.url.appendingPathComponent(RecordFile.name))
        #expect(RunResult.judged(record).verdicts == result.verdicts)
    }

    @Test func aFaithfulRestoreOfAnIncompleteReplaceBackupHolds() throws {
        let scratch = try Scratch("incomplete-replace")
        let (result, _) = try Self.run("restore-of-incomplete-replace-backup.yaml", seed: 1, scratch: scratch)
        for name in ["restore-equals-backup", "restore-durable", "restore-opens"] {
            let verdict = result.verdicts.first { $0.invariant == name }
            #expect(verdict?.status == .held, "\(String(describing: verdict))")
        }
        // The missing files are the replace step's finding, on its backups only.
        let blobs = try #require(result.verdicts.first { $0.invariant == "blobs-carried" })
        if blobs.status == .violated {
            #expect(blobs.evidence.allSatisfy { $0.hasPrefix("backup-0") }, "\(blobs.evidence)")
        }
    }
}
