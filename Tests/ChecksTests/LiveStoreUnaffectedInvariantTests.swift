@testable import Checks
import Foundation
import Testing
import Workload

/// `live-store-unaffected` on records built by hand: writer 1 committed three notes. The live store at the end
/// holding them holds; a lost commit, a failed save, an object no history explains, and a store read by a
/// restore while the writer went on that lacks what was acknowledged by then are violated; a run whose live
/// store was never read is not exercised. (A writer that exits non-zero: `JudgeTests.anAppProcessThatEndsWithAnErrorIsAFinding`.)
@Suite struct LiveStoreUnaffectedInvariantTests {
    static let name = "live-store-unaffected"

    static func verdict(atEnd state: StoreState?, transactions: [Transaction] = HandBuilt.transactions()) -> Verdict {
        var record = HandBuilt.record()
        record.transactions = transactions
        record.liveAtEnd = state.map { HandBuilt.clean("live store at the end", state: $0) }
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aLiveStoreHoldingEveryCommitHolds() {
        let verdict = Self.verdict(atEnd: HandBuilt.state(3))
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): writers saw no errors; the live store holds what they committed", "\(verdict)")
    }

    @Test func aLostCommitIsViolated() {
        let verdict = Self.verdict(atEnd: HandBuilt.state(2))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("writers were affected"), "\(verdict)")
        #expect(verdict.evidence.first == "writer 1: the live store does not hold its 3 committed transactions", "\(verdict.evidence)")
        #expect(verdict.fix == LiveStoreUnaffected().fix && verdict.owner == nil)
    }

    @Test func aFailedSaveIsViolated() {
        var transactions = HandBuilt.transactions()
        transactions.append(Transaction(writer: 1, seq: 4, ops: [HistoryOp(op: "insert", entity: "Note", id: HandBuilt.ids[3], hash: "h3")],
                                        intentAt: 3.9, ackAt: nil, outcome: .failed, error: "SQLite error 5: database is locked"))
        let verdict = Self.verdict(atEnd: HandBuilt.state(3), transactions: transactions)
        #expect(verdict.status == .violated && verdict.evidence == ["writer 1 tx 4 failed: SQLite error 5: database is locked"], "\(verdict)")
    }

    @Test func anObjectNoHistoryExplainsIsViolated() {
        var state = HandBuilt.state(3)
        let stranger = UUID()
        state.notes[stranger] = "imported"
        let verdict = Self.verdict(atEnd: state)
        #expect(verdict.status == .violated && verdict.evidence == ["live store: Note \(stranger.uuidString) is in no history and not in the initial store"], "\(verdict)")
    }

    /// A restore at 2.5 s found the live store while writer 1 kept its connection: it must hold the two commits
    /// acknowledged by then.
    @Test func aStoreReadWhileWritersWentOnHoldsWhatWasAcknowledgedThen() {
        func verdict(_ state: StoreState) -> Verdict {
            var record = HandBuilt.record()
            record.rounds = [RoundRecord(number: 0, start: 0, base: [:], liveBeforeRestore: state, liveBeforeRestoreAt: 2.5)]
            return HandBuilt.verdict(record, Self.name)
        }
        #expect(verdict(HandBuilt.state(2)).status == .held)
        let stale = verdict(HandBuilt.state(1))
        #expect(stale.status == .violated && stale.evidence.first == "writer 1: the live store does not hold the 2 transactions it had acknowledged when the store was read", "\(stale)")
    }

    @Test func aLiveStoreNeverReadIsNotExercised() {
        let verdict = Self.verdict(atEnd: nil)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: the live store was never read after its writers (it could not be read at the end)", "\(verdict)")
    }
}
