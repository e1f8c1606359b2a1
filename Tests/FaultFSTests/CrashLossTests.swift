@testable import FaultFS
import Foundation
import Testing

/// The causes of a durability finding, read from an op log: which operations the crash dropped, by whom, and the
/// fsync that never came (or lied).
@Suite struct CrashLossTests {
    static let records: [OpRecord] = {
        var first = OpRecord(seq: 1, t: 0.30, op: .mkdir, path: "/backups/0-1", result: 0, durable: false, pid: 40)
        first.comm = "sh"
        first.parents = [30]
        return [
            first,
            OpRecord(seq: 2, t: 0.31, op: .create, path: "/backups/0-1/Library.sqlite.tmp", result: 0, durable: false, pid: 40),
            OpRecord(seq: 3, t: 0.32, op: .write, path: "/backups/0-1/Library.sqlite.tmp", ino: 9, offset: 0, length: 4096, size: 4096, result: 4096, durable: false, pid: 40),
            OpRecord(seq: 4, t: 0.33, op: .fsync, path: "/backups/0-1/Library.sqlite.tmp", ino: 9, result: 0, synced: [3], pid: 40),
            OpRecord(seq: 5, t: 0.3636, op: .syncAll, result: 0),
            OpRecord(seq: 6, t: 0.3678, op: .rename, path: "/backups/0-1/Library.sqlite.tmp", path2: "/backups/0-1/Library.sqlite", ino: 9, result: 0, durable: false, pid: 40),
            OpRecord(seq: 7, t: 0.40, op: .write, path: "/Library.sqlite-wal", ino: 5, offset: 8192, length: 4096, size: 12288, result: 4096, durable: false, pid: 50),
            OpRecord(seq: 8, t: 0.41, op: .fsync, path: "/Library.sqlite-wal", ino: 5, result: 0, fault: "r1", synced: [], detail: "lie: nothing made durable", pid: 50),
            OpRecord(seq: 9, t: 0.4271, op: .crash, result: 0, dropped: [6, 7], detail: "keep-none"),
        ]
    }()

    @Test func aRenameNeverSyncedNamesItsDirectoryAndProcess() throws {
        var loss = try #require(CrashLoss(records: Self.records))
        loss.clockOffset = 0
        let lost = loss.lost(under: ["/backups/0-1/"])
        #expect(lost.map(\.seq) == [6])
        let clause = loss.clause(lost[0], actor: "backup-0 (\(loss.command(lost[0]) ?? "?"))")
        #expect(clause == "rename /backups/0-1/Library.sqlite.tmp -> /backups/0-1/Library.sqlite at 0.368 s by backup-0 (sh) was never followed by an fsync of its directory /backups/0-1")
        #expect(loss.crashClause(count: 1) == "the crash at 0.427 s dropped it")
        #expect(loss.chain(lost[0]) == [40, 30])
    }

    /// Under `--fsync-failure ext4` the failed fsync gives the write up (it lists it in `dropped`), the retried fsync
    /// succeeds with nothing to write, and the crash drops nothing: the write is still the loss, and its failed fsync
    /// the barrier named.
    @Test func aWriteAFailedFsyncGaveUpIsLostAndNamesThatFsync() throws {
        let tmp = "/backups/0-1/Library.sqlite.tmp"
        let records = [
            OpRecord(seq: 1, t: 0.30, op: .crash, result: 0, dropped: [], detail: "keep-none"),
            OpRecord(seq: 2, t: 0.31, op: .write, path: tmp, ino: 9, offset: 0, length: 4096, size: 4096, result: 4096, durable: false, pid: 40),
            OpRecord(seq: 3, t: 0.32, op: .fsync, path: tmp, ino: 9, result: -Int64(EIO), fault: "r1", dropped: [2],
                     detail: "fsync-failure ext4: unsynced data kept in memory, marked clean (not written)", pid: 40),
            OpRecord(seq: 4, t: 0.33, op: .fsync, path: tmp, ino: 9, result: 0, synced: [], pid: 40),
            OpRecord(seq: 5, t: 0.34, op: .rename, path: tmp, path2: "/backups/0-1/Library.sqlite", ino: 9, result: 0, durable: false, pid: 40),
            OpRecord(seq: 6, t: 0.35, op: .fsyncdir, path: "/backups/0-1", result: 0, synced: [5], pid: 40),
            OpRecord(seq: 7, t: 0.40, op: .crash, result: 0, dropped: [], detail: "keep-none"),
        ]
        let loss = try #require(CrashLoss(records: records))
        let lost = loss.lost(under: ["/backups/0-1/"])
        #expect(lost.map(\.seq) == [2])
        #expect(loss.clause(lost[0], actor: nil) == "write of 4096 bytes at 0 to \(tmp) at 0.310 s was followed by an fsync of \(tmp) at 0.320 s that failed (EIO), then by one at 0.330 s that returned success without writing it (the failed fsync had given it up)")
        // A failure before an earlier crash was that crash's to show.
        let later = records + [OpRecord(seq: 8, t: 0.5, op: .crash, result: 0, dropped: [], detail: "keep-none")]
        #expect(try #require(CrashLoss(records: later)).dropped.isEmpty)
    }

    @Test func aWriteWhoseFsyncLiedSaysSo() throws {
        let loss = try #require(CrashLoss(records: Self.records))
        let lost = loss.lost(under: ["/Library.sqlite"])
        #expect(lost.map(\.seq) == [7])
        let clause = loss.clause(lost[0], actor: nil)
        #expect(clause.hasPrefix("write of 4096 bytes at 8192 to /Library.sqlite-wal at 0.400 s was followed by an fsync of /Library.sqlite-wal at 0.410 s that returned success but made nothing durable (fault r1)"), "\(clause)")
        #expect(loss.lostRanges(of: "/Library.sqlite-wal") == [8192..<12288])
    }

    @Test func aTornWriteGivesTheRangeThatDidNotSurvive() throws {
        var records = Array(Self.records.dropLast())
        records.append(OpRecord(seq: 9, t: 0.43, op: .crash, offset: 9728, result: 0, dropped: [6], detail: "torn seq 7"))
        let loss = try #require(CrashLoss(records: records))
        let lost = loss.lost(under: ["/Library.sqlite"])
        #expect(lost.map(\.seq) == [7])
        #expect(loss.clause(lost[0], actor: nil).contains("the crash tore it at byte 9728: bytes 9728-12288 were lost"))
        #expect(loss.lostRanges(of: "/Library.sqlite-wal") == [9728..<12288])
    }

    @Test func aLogWithoutACrashHasNoLoss() {
        #expect(CrashLoss(records: Array(Self.records.dropLast())) == nil)
    }
}
