@testable import Checks
import Foundation
import Testing

/// `connections-agree` on records built by hand: after a restore, every writer and reader that kept its
/// connection sees the restored store (held); one still holding the old file's inode is violated, naming it;
/// a run in which no process kept its connection across a restore is not exercised.
@Suite struct ConnectionsAgreeInvariantTests {
    static let name = "connections-agree"

    static func verdict(_ connections: ConnectionsMeasurement?) -> Verdict {
        var record = HandBuilt.record()
        var restore = HandBuilt.restore()
        restore.restore?.connections = connections
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)), restore]
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func everyKeptConnectionOnTheRestoredStoreHolds() {
        let verdict = Self.verdict(ConnectionsMeasurement(agreeing: ["writer-1", "reader-1"], stale: []))
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): restore-1 (command): writer-1, reader-1 see the restored store", "\(verdict)")
    }

    @Test func aConnectionLeftOnTheOldStoreIsViolated() {
        let stale = "writer-1 holds the old store: Library.sqlite inode 12 (deleted), the path is now inode 14"
        let verdict = Self.verdict(ConnectionsMeasurement(agreeing: ["reader-1"], stale: [stale]))
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.summary == "violated in 1 of 1 check(s): restore-1 (command): connections split across the restore; reader-1 see the restored one", "\(verdict.summary)")
        #expect(verdict.evidence == ["restore-1 (command): \(stale)"])
        #expect(verdict.consequence == ConnectionsAgree().consequence && verdict.owner == nil)
    }

    @Test func withoutAConnectionKeptAcrossARestoreItIsNotExercised() {
        let verdict = Self.verdict(nil)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no writer or reader kept its connection across a restore in this run", "\(verdict)")
    }
}
