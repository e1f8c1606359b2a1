@testable import Checks
import Foundation
import Testing

/// `durable-after-crash` on records built by hand: writer 1's three commits were acknowledged at synchronous=full
/// before the power failed at 3.5 s. The recovered live store holding all three holds; holding one is violated,
/// with the op log's cause; at synchronous=normal acknowledged does not mean durable, and a run without a crash
/// (or whose crashed store a restore replaced first) is not exercised, each saying why. The app's own lost
/// attachments are set aside (`JudgeTests.theAppsOwnLossIsNeverTheProgramsFinding`).
@Suite struct DurableAfterCrashInvariantTests {
    static let name = "durable-after-crash"
    static let cause = "truncate /Library.sqlite-wal by backup-0 (command) came before the checkpoint that would have kept its frames"

    static func verdict(recovered: StoreState?, synchronous: String = "full", crash: Bool = true) -> Verdict {
        var record = HandBuilt.record(plan: HandBuilt.plan(synchronous: synchronous))
        if crash {
            record.crash = HandBuilt.crash(at: 3.5, live: recovered.map { HandBuilt.clean("live store after the crash", state: $0) }, cause: Self.cause)
        }
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func everyAcknowledgedCommitSurvivingHolds() {
        let verdict = Self.verdict(recovered: HandBuilt.state(3))
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): every acknowledged transaction survived crash (keep-none) at 3.5 s", "\(verdict)")
    }

    @Test func lostAcknowledgedCommitsAreViolatedWithTheCause() {
        let verdict = Self.verdict(recovered: HandBuilt.state(1))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("acknowledged transactions lost after crash (keep-none) at 3.5 s"), "\(verdict)")
        #expect(verdict.evidence == ["after crash (keep-none) at 3.5 s: writer 1 had 3 transactions acknowledged, the recovered store has 1; lost from tx 2"], "\(verdict.evidence)")
        #expect(verdict.cause == Self.cause && verdict.owner == nil && verdict.consequence == DurableAfterCrash().consequence)
    }

    /// SQLite in DELETE journal mode at synchronous=FULL unlinks its journal without an fsync of the folder: a
    /// power cut right after loses the app's own acknowledged commit (a user's store in rollback-journal mode,
    /// `try --store`). No program touched the live store: the loss is the app's, never the program's.
    @Test func aLossOnlyTheAppsOwnOperationsExplainIsTheAppsNotTheProgramsFinding() {
        let unlink = LossRecord.Operation(what: "unlink /Library.sqlite-journal", path: "/Library.sqlite-journal", actor: "writer-1", kind: .app, barrier: "never")
        var record = HandBuilt.record(plan: HandBuilt.plan(synchronous: "full"))
        record.crash = HandBuilt.crash(at: 3.5, live: HandBuilt.clean("live store after the crash", state: HandBuilt.state(2)))
        record.crash?.liveLoss = LossRecord(operations: [unlink], cause: "unlink /Library.sqlite-journal by writer-1 was never followed by an fsync of its directory")
        let program = HandBuilt.verdict(record, Self.name)
        #expect(program.status == .held, "\(program)")
        #expect(program.summary.contains("what else the crash took is the app's own (see app-durable)"), "\(program.summary)")
        let app = HandBuilt.verdict(record, "app-durable")
        #expect(app.status == .violated && app.owner == .app, "\(app)")
        #expect(app.evidence.contains("lost: unlink /Library.sqlite-journal by writer-1, never synced"), "\(app.evidence)")

        // One operation of the program's among them: the program's finding again.
        record.crash?.liveLoss?.operations.append(LossRecord.Operation(what: "rename /Library.sqlite.tmp -> /Library.sqlite", path: "/Library.sqlite",
                                                                       actor: "restore-1 (command)", kind: .program, barrier: "never"))
        #expect(HandBuilt.verdict(record, Self.name).status == .violated)
    }

    @Test func aStoreMatchingNoPrefixIsViolated() {
        var torn = HandBuilt.state(3)
        torn.notes[HandBuilt.ids[0]] = nil
        let verdict = Self.verdict(recovered: torn)
        #expect(verdict.status == .violated && verdict.evidence.first == "after crash (keep-none) at 3.5 s: writer 1: the recovered store matches no prefix of its history", "\(verdict.evidence)")
    }

    @Test func whereAcknowledgedIsNotDurableOrNothingCrashedItIsNotExercised() {
        #expect(Self.verdict(recovered: HandBuilt.state(1), synchronous: "normal").summary
            == "not exercised: writers ran at synchronous=normal: acknowledged does not mean durable")
        #expect(Self.verdict(recovered: nil).summary
            == "not exercised: the live store was restored before it could be judged after the crash (the restore's invariants judge it)")
        #expect(Self.verdict(recovered: nil, crash: false).summary == "not exercised: no crash in this run")
    }
}
