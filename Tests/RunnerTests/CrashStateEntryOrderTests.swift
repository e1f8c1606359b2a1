@testable import Explore
import Checks
import FaultFS
import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// The crash states the enumerator builds around directory-entry changes are ones the crash model allows
/// (docs/faultfs.md, "Crash model"): entry changes survive as a prefix, so a restore's rename never survives
/// without the unlink of the old `-wal` before it. The op sequence is the one of B8's correct twin
/// (`Scenarios/real-bugs/programs/restore-clean.py`): remove the live `-wal`, create and write the temporary
/// copy, fsync it, rename it over the store, fsync the folder. Before the fix, the `omit` variant of the unlink at
/// the folder fsync kept the create and the rename: the new database beside the old store's `-wal`, which SQLite
/// replays into it ("database disk image is malformed", seen in 3 of 4 runs of `crash-states` on the twin).
@Suite struct CrashStateEntryOrderTests {
    static let database = "/Library.sqlite"
    static let temporary = "/Library.sqlite.restoring"

    /// The restore's operations after the log mark, with the backing inodes FaultFS would log.
    static let restore: [OpRecord] = [
        OpRecord(seq: 10, t: 1.0, op: .unlink, path: database + "-wal", ino: 2, result: 0, durable: false),
        OpRecord(seq: 11, t: 1.1, op: .create, path: temporary, ino: 5, result: 0, durable: false),
        OpRecord(seq: 12, t: 1.2, op: .write, path: temporary, ino: 5, offset: 0, length: 4096, result: 4096, durable: false),
        OpRecord(seq: 13, t: 1.3, op: .fsync, path: temporary, ino: 5, result: 0, synced: [12]),
        OpRecord(seq: 14, t: 1.4, op: .rename, path: temporary, path2: database, ino: 5, result: 0, durable: false),
        OpRecord(seq: 15, t: 1.5, op: .fsyncdir, path: "/", ino: 1, result: 0, synced: [10, 11, 14]),
    ]

    /// Every state built at every point of the restore keeps a prefix of the pending entry changes, and the
    /// state that kept the rename without the unlink (barrier 15, `omit seq 10`) is no longer produced.
    @Test func aRenameNeverSurvivesWithoutTheEarlierUnlink() throws {
        let scratch = try Scratch("states-entry-order")
        let log = scratch.path("faultfs.oplog")
        let start = [Self.database: Data(repeating: 1, count: 4096), Self.database + "-wal": Data(repeating: 2, count: 4096)]
        let enumerator = CrashStateEnumerator(records: Self.restore, log: log, start: start, databaseName: Self.database,
                                              oracle: Oracle(transactions: [], initial: [:]), clockOffset: 0)
        var states: [CrashStateEnumerator.State] = []
        let summary = try enumerator.run(scratch: scratch.path("states"), maxPoints: 10, seed: 1, verdict: { state, _ in states.append(state) })
        #expect(summary.pointsChecked == 3, "the temporary copy's fsync (tracked by its inode), the folder fsync and the end of the log")
        let entries = Self.restore.filter { CrashStateEnumerator.entryOps.contains($0.op) }.map(\.seq)
        let atFolderSync = states.filter { $0.point == 15 }
        #expect(!atFolderSync.isEmpty)
        for state in states {
            let keptEntries = state.kept.filter { entries.contains($0) }
            let pendingEntries = entries.filter { $0 < state.point }
            #expect(Array(pendingEntries.prefix(keptEntries.count)) == keptEntries,
                    "\(state.variant) at \(state.point) keeps entries \(keptEntries), not a prefix of \(pendingEntries)")
        }
        #expect(!states.contains { $0.kept.contains(14) && !$0.kept.contains(10) }, "the rename without the unlink")
        let omitUnlink = try #require(atFolderSync.first { $0.variant.hasPrefix("omit seq 10") })
        #expect(omitUnlink.kept == [], "leaving out the unlink leaves out the create and rename after it: \(omitUnlink.variant)")
        #expect(atFolderSync.contains { $0.kept == [10, 11] }, "the rename lost alone (omit seq 14) is still a state")
        #expect(atFolderSync.contains { $0.kept == [10, 11, 14] }, "and every entry kept")
        // The report's count per point: its states, each examined afresh or skipped by one reduction.
        #expect(summary.points.map(\.point) == [13, 15, 16])
        #expect(summary.points.map(\.states).reduce(0, +) == summary.statesChecked)
        for point in summary.points {
            #expect(point.states == states.filter { $0.point == point.point }.count)
            #expect(point.examined + point.sameOperations + point.sameContent == point.states, "\(point)")
        }
        let folderSync = try #require(summary.points.first { $0.point == 15 })
        #expect(folderSync.pending == 3 && folderSync.pendingEntries == 3, "the unlink, the create and the rename")
    }

    /// B8 itself (the rename into place with no folder fsync) fails at the state where its rename is lost after it
    /// reported success: at the first point after its success (checked whatever the seed chose), the state that
    /// keeps none of the pending entry changes is the old store, and the restore had said the backup was in place.
    @Test func theB8RestoreFailsWhereItsRenameIsLostAfterSuccess() throws {
        let scratch = try Scratch("states-b8")
        let file = DrillTests.scenarios.appendingPathComponent("real-bugs/b08-restore-rename-no-dir-fsync.yaml")
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        let recording = try CrashStateRun.record(try ScenarioParser.parse(file: file), file: file.path, settings: settings)
        defer { recording.remove() }
        let enumerator = recording.enumerator
        let restore = try #require(enumerator.restores.first, "the run's restore is judged")
        let end = try #require(restore.end)
        let rename = try #require(enumerator.records.first { $0.op == .rename && $0.path2 == Self.database && $0.result >= 0 })
        var failed: [(CrashStateEnumerator.State, [String])] = []
        let summary = try enumerator.run(scratch: recording.states, maxPoints: 2, seed: 1, verdict: { state, problems in
            if !problems.isEmpty { failed.append((state, problems)) }
        })
        let lost = failed.filter { state, problems in
            !state.kept.contains(rename.seq) && problems.contains { $0.contains("\(restore.name) reported success") }
        }
        #expect(!lost.isEmpty, "no state lost the rename after the restore's success: \(summary.failures.prefix(2))")
        for (state, _) in lost {
            let point = try #require(enumerator.records.first { $0.seq == state.point })
            #expect(point.t + enumerator.clockOffset >= end, "\(state.variant) at \(state.point) is after the restore's success")
            #expect(point.seq > rename.seq)
        }
        #expect(lost.contains { $0.0.variant == "keep-none" })
    }
}
