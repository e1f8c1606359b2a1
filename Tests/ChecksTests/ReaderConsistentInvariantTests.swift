@testable import Checks
import Foundation
import Testing
import Workload

/// `reader-consistent` through the judge, on records built by hand (the pure verdict is in
/// `ReaderConsistencyTests`): writer 1 commits notes 0-2, acknowledged at 1, 2 and 3 s. A reader's snapshot at
/// 2.5 s holding the first two holds; a stale one, one that matches no prefix, and a reader that exited with an
/// error are violated; each snapshot is held to its own round of writers; a run without readers is not exercised.
@Suite struct ReaderConsistentInvariantTests {
    static let name = "reader-consistent"

    static func snapshot(_ state: StoreState, began: Double = 2.5, ended: Double = 2.6) -> ReaderSnapshot {
        ReaderSnapshot(reader: 1, began: began, read: began, ended: ended,
                       notes: Dictionary(uniqueKeysWithValues: state.notes.map { ($0.key.uuidString, $0.value) }), missingBlobs: [])
    }

    static func verdict(_ snapshots: [ReaderSnapshot]?, processes: [ProcessExit] = []) -> Verdict {
        var record = HandBuilt.record()
        record.readerSnapshots = snapshots
        record.processes = processes
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aSnapshotWithEverythingAcknowledgedHolds() {
        let verdict = Self.verdict([Self.snapshot(HandBuilt.state(2)), Self.snapshot(HandBuilt.state(3), began: 3.2, ended: 3.5)])
        #expect(verdict.status == .held, "\(verdict)")
        #expect(verdict.summary == "held in 1 check(s): 2 reader snapshot(s), each a prefix of every writer's commits (longest read transaction 0.30 s)", "\(verdict.summary)")
    }

    @Test func aStaleOrImpossibleSnapshotIsViolated() {
        let stale = Self.verdict([Self.snapshot(HandBuilt.state(1))])
        #expect(stale.status == .violated && stale.summary.hasSuffix("a reader saw a state the history cannot explain"), "\(stale)")
        #expect(stale.evidence == ["reader-1 at 2.500 s: writer 1: shows 1 of its transactions; 2 were acknowledged before the read began and 2 had begun when it ended"], "\(stale.evidence)")
        var torn = HandBuilt.state(3)
        torn.notes[HandBuilt.ids[1]] = nil
        let impossible = Self.verdict([Self.snapshot(torn, began: 3.2, ended: 3.5)])
        #expect(impossible.status == .violated && impossible.evidence.first == "reader-1 at 3.200 s: writer 1: matches no prefix of its 3 transactions", "\(impossible.evidence)")
        #expect(impossible.severity == .damaged && impossible.fix == ReaderConsistent().fix)
    }

    @Test func aReaderThatExitedWithAnErrorIsViolated() {
        let exit = ProcessExit(name: "reader-1", status: 2, signal: nil, killedByRunner: false, outputTail: "Error: error 134100")
        let verdict = Self.verdict([Self.snapshot(HandBuilt.state(2))], processes: [exit])
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 2 check(s): reader-1 exited with status 2", "\(verdict)")
        #expect(verdict.evidence == ["reader-1 exited with status 2: Error: error 134100"])
    }

    /// Round 1 (after a restore at 5 s) begins from the store holding notes 0-2; its writer inserts note 3.
    @Test func eachSnapshotIsHeldToItsOwnRound() {
        var record = HandBuilt.record()
        let next = WriterRound.writer(1, round: 1)
        record.transactions.append(Transaction(writer: next, seq: 1, ops: [HistoryOp(op: "insert", entity: "Note", id: HandBuilt.ids[3], hash: "h3")],
                                               intentAt: 5.9, ackAt: 6, outcome: .committed, error: nil))
        let base = HandBuilt.state(3).notes
        record.rounds = [RoundRecord(number: 0, start: 0, base: [:]), RoundRecord(number: 1, start: 5, base: base)]
        var after = HandBuilt.state(4)
        record.readerSnapshots = [Self.snapshot(HandBuilt.state(2)), Self.snapshot(after, began: 6.5, ended: 6.6)]
        #expect(HandBuilt.verdict(record, Self.name).summary.hasPrefix("held in 2 check(s)"), "\(HandBuilt.verdict(record, Self.name))")
        after.notes[HandBuilt.ids[3]] = nil
        record.readerSnapshots = [Self.snapshot(HandBuilt.state(2)), Self.snapshot(after, began: 6.5, ended: 6.6)]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.summary.hasPrefix("violated in 1 of 2 check(s)"), "\(verdict)")
        #expect(verdict.evidence == ["reader-1 at 6.500 s: writer \(next): shows 0 of its transactions; 1 were acknowledged before the read began and 1 had begun when it ended"], "\(verdict.evidence)")
    }

    @Test func withoutReadersItIsNotExercised() {
        #expect(Self.verdict(nil).summary == "not exercised: no readers in this run (readers: {count, hold, every})")
        #expect(Self.verdict([]).summary == "not exercised: no reader took a snapshot")
    }
}
