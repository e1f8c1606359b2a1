@testable import Checks
import Foundation
import StoreModel
import Testing
import Workload

/// `saves-after-migrate` on records built by hand: saves that failed because the app's coordinator held no store
/// (a migrate on the app's own coordinator, then the copy removed) are the app's own finding, reported apart,
/// with the first failure and a count per writer; a run in which no save failed for want of a store (any other
/// failure is `live-store-unaffected`'s) is not exercised. The judge-level case is
/// `JudgeTests.savesThatFoundNoStoreAreTheAppsOwnAndLoseNothingAcknowledged`; this invariant has no held verdict.
@Suite struct SavesAfterMigrateInvariantTests {
    static let name = "saves-after-migrate"

    static func failedSave(writer: Int, seq: Int, at: Double, error: String = StoreError.noPersistentStoresReason) -> Transaction {
        Transaction(writer: writer, seq: seq, ops: [HistoryOp(op: "insert", entity: "Note", id: UUID(), hash: "x\(writer)-\(seq)")],
                    intentAt: at, ackAt: nil, outcome: .failed, error: error)
    }

    @Test func savesThatFoundNoStoreAreTheAppsOwnFinding() {
        var record = HandBuilt.record()
        record.transactions += [Self.failedSave(writer: 1, seq: 4, at: 3.9), Self.failedSave(writer: 1, seq: 5, at: 4.9), Self.failedSave(writer: 2, seq: 1, at: 4.2)]
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: HandBuilt.state(3))
        let judgement = Judge.judge(record)
        let verdict = HandBuilt.verdict(judgement, Self.name)
        #expect(verdict.status == .violated && verdict.isAppsOwn, "\(verdict)")
        #expect(verdict.summary.hasSuffix("3 save(s) of the app failed after it migrated its store on its own coordinator: nothing it was told was saved is lost, but what it saved afterwards went nowhere"), "\(verdict.summary)")
        #expect(verdict.evidence.first == "writer 1 tx 4 (at 3.90 s) failed: \(StoreError.noPersistentStoresReason)", "\(verdict.evidence)")
        #expect(verdict.evidence.contains("writer 1: 2 save(s) failed after the migrate (tx 4-5); none was acknowledged, so the app was told each one failed"))
        #expect(verdict.evidence.contains("writer 2: 1 save(s) failed after the migrate (tx 1-1); none was acknowledged, so the app was told each one failed"))
        #expect(HandBuilt.verdict(judgement, "live-store-unaffected").status == .held)
        #expect(judgement.expectationMet, "the app's own finding fails no pass run")
    }

    @Test func withoutASaveThatFoundNoStoreItIsNotExercised() {
        var record = HandBuilt.record()
        record.transactions.append(Self.failedSave(writer: 1, seq: 4, at: 3.9, error: "SQLite error 10: disk I/O error"))
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .notApplicable && verdict.isAppsOwn, "\(verdict)")
        #expect(verdict.summary == "not exercised: no save failed for want of a store (a `backup: migrate` with `coordinator: app` and `saves_after_migrate: fail` makes them)")
    }
}
