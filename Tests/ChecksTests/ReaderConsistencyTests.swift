@testable import Checks
import Foundation
import LifeboatTestSupport
import Testing
import Workload

/// `reader-consistent`: a reader's snapshot must be a prefix of every writer's commits, with everything
/// acknowledged before its read began; and the oracle's evidence names the transaction that wrote a state.
@Suite struct ReaderConsistencyTests {
    let a = UUID(), b = UUID()

    /// One writer: tx 1 inserts A (acked at 1.0), tx 2 updates A (acked at 2.0), tx 3 inserts B (begun at 2.9).
    func oracle(_ scratch: Scratch) throws -> Oracle {
        let history = scratch.path("history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let writer = try HistoryWriter(history.appendingPathComponent("writer-1.jsonl"))
        let steps: [(Int, HistoryOp, Double, Double)] = [
            (1, HistoryOp(op: "insert", entity: "Note", id: a, hash: "a1"), 0.9, 1.0),
            (2, HistoryOp(op: "update", entity: "Note", id: a, hash: "a2"), 1.9, 2.0),
            (3, HistoryOp(op: "insert", entity: "Note", id: b, hash: "b1"), 2.9, 3.0),
        ]
        for (seq, op, intent, ack) in steps {
            try writer.append(HistoryRecord(writer: 1, seq: seq, state: .intent, t: intent, ops: [op]))
            try writer.append(HistoryRecord(writer: 1, seq: seq, state: .ack, t: ack))
        }
        return Oracle(transactions: HistoryReader.transactions(in: history), initial: [:])
    }

    func snapshot(_ notes: [UUID: String], began: Double = 2.5, ended: Double = 2.6) -> ReaderSnapshot {
        ReaderSnapshot(reader: 1, began: began, read: began, ended: ended,
                       notes: Dictionary(uniqueKeysWithValues: notes.map { ($0.key.uuidString, $0.value) }), missingBlobs: [])
    }

    @Test func aPrefixWithEverythingAcknowledgedHolds() throws {
        let oracle = try oracle(try Scratch("reader-ok"))
        #expect(ReaderConsistent.verdict([snapshot([a: "a2"])], oracle: oracle).status == .held)
        #expect(ReaderConsistent.verdict([snapshot([a: "a2", b: "b1"], ended: 3.1)], oracle: oracle).status == .held)
    }

    @Test func aStaleOrImpossibleReadIsAViolation() throws {
        let oracle = try oracle(try Scratch("reader-bad"))
        let stale = ReaderConsistent.verdict([snapshot([a: "a1"])], oracle: oracle)
        #expect(stale.status == .violated && stale.evidence.first?.contains("2 were acknowledged before the read began") == true, "\(stale.evidence)")
        let impossible = ReaderConsistent.verdict([snapshot([a: "a1", b: "b1"], ended: 3.1)], oracle: oracle)
        #expect(impossible.status == .violated)
        #expect(impossible.evidence.contains { $0.contains("that state was written by tx 3") }, "\(impossible.evidence)")
        #expect(ReaderConsistent.verdict([], oracle: oracle).status == .notApplicable)
    }
}
