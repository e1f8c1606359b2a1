import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The timeline's store activity is measured from the op log of a FaultFS run: the -wal's length grows with the
/// commits and drops when a truncating checkpoint resets it, checkpoints are marked, and a program's fsyncs are
/// marked with its step's name while the writers' own are only counted.
@Suite(.serialized, .ownThread) struct StoreActivityTests {
    @Test func theOpLogGivesTheWalLengthCheckpointsAndTheProgramsFsyncs() throws {
        let scratch = try Scratch("store-activity")
        let scenario = try ScenarioParser.parse(yaml: """
            name: store-activity
            store: {objects: 50, blob_fraction: 0}
            writers: {count: 2, transactions: 40, rate: 50, blob_fraction: 0, checkpoint: none}
            schedule:
              - checkpoint: truncate
                after_commits: 40
              - backup: command
                command: python3 -c "import os, shutil; d = os.environ['LIFEBOAT_BACKUP_DIR']; shutil.copy(os.environ['LIFEBOAT_STORE'], d); f = os.open(d, os.O_RDONLY); os.fsync(f)"
                after_commits: 60
            faults: {mount: true, backups_on_volume: true}
            invariants: [backup-completes]
            expect: pass
            """)
        let (result, _) = try DrillTests.run(scenario, file: "store-activity.yaml", scratch: scratch)
        let activity = try #require(result.activity, "a FaultFS run measures the store's activity")
        let wal = activity.walBytes
        #expect(wal.count > 5, "\(wal.count) -wal samples")
        // The -wal grows, then the truncating checkpoint starts it again: a later sample is smaller than an earlier.
        let peakIndex = try #require(wal.indices.max { wal[$0].bytes < wal[$1].bytes })
        #expect(wal[peakIndex].bytes > 4096)
        #expect(wal.enumerated().contains { $0.offset > 0 && $0.element.bytes < wal[$0.offset - 1].bytes }, "no drop in \(wal.map(\.bytes))")
        #expect(zip(wal, wal.dropFirst()).allSatisfy { $0.t <= $1.t }, "samples in time order")
        #expect(!activity.checkpoints.isEmpty, "the checkpoint wrote into the database file")
        #expect(activity.appFsyncs > 0, "the writers' commits fsync the -wal (synchronous: full)")
        #expect(activity.fsyncs.contains { $0.actor?.hasPrefix("backup-1") == true }, "\(activity.fsyncs) \(result.operations)")
        #expect(!activity.fsyncs.contains { $0.actor?.hasPrefix("writer-") == true })
        // On the run's clock: the backup's fsync falls within its step.
        let step = try #require(result.operations.first { $0.name == "backup-1" })
        let fsync = try #require(activity.fsyncs.first { $0.actor?.hasPrefix("backup-1") == true })
        #expect(fsync.t >= step.start - 0.05 && fsync.t <= step.end + 0.05, "fsync at \(fsync.t), step \(step.start)-\(step.end)")
        // The timeline draws it: the -wal curve and the legend.
        let html = HTMLReport.timeline(result)
        #expect(html.contains("-wal (max") && html.contains("fsync by a program") && html.contains("checkpoint"))
    }
}
