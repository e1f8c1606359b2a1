import Checks
import Foundation
import LifeboatTestSupport
import StoreModel
import Testing
import Workload

/// A forgotten blob is `blobs-carried`'s finding alone: the oracle still recognises the object, so the same
/// mistake is not reported again as lost or changed data.
@Suite struct OracleTests {
    @Test func aMissingBlobIsComparedByPresenceOnly() throws {
        let scratch = try Scratch("oracle-blobs")
        let store = try scratch.store(objects: 40, blobFraction: 0.5, blobSize: 110_000)
        let before = try StoreState.read(store)
        #expect(before.missingBlobs.isEmpty)
        let oracle = Oracle(transactions: [], initial: before.notes.merging(before.others) { first, _ in first })
        #expect(oracle.strangers(before).isEmpty)

        let files = StoreFiles(store)
        let gone = try #require(files.externalFileNames().first)
        try FileManager.default.removeItem(at: files.externalFile(gone))
        let after = try StoreState.read(store)
        #expect(after.missingBlobs.count == 1)
        let id = try #require(after.missingBlobs.first)
        #expect(after.notes[id] != before.notes[id], "the placeholder changes the object's hash")
        #expect(after.shows(before.notes[id], for: id))
        #expect(!after.shows(nil, for: id), "the object itself is there")
        #expect(oracle.strangers(after).isEmpty, "\(oracle.strangers(after))")
    }

    @Test func aChangedObjectWithItsBlobIsStillAStranger() throws {
        let scratch = try Scratch("oracle-changed")
        let store = try scratch.store(objects: 20, blobFraction: 0.5, blobSize: 110_000)
        var state = try StoreState.read(store)
        let oracle = Oracle(transactions: [], initial: state.notes.merging(state.others) { first, _ in first })
        let id = try #require(state.notes.keys.first)
        state.notes[id] = "something else"
        #expect(oracle.strangers(state) == ["initial object \(id.uuidString) changed (\(oracle.initial[id]!) -> something else)"])
    }
}

/// `Oracle.round`: a round's oracle holds a store to the store the round began from plus that round's commits.
@Suite struct RoundOracleTests {
    /// Writer 1 (round 0) inserts a note; writer 100001 (round 1) inserts another, or `reuse` inserts the one
    /// round 0 made (an identity shared across rounds).
    static func histories(_ scratch: Scratch, reuse: Bool) throws -> (transactions: [Transaction], first: UUID, second: UUID) {
        let directory = scratch.path("history")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let first = UUID(), second = reuse ? first : UUID()
        for (writer, id) in [(1, first), (WriterRound.writer(1, round: 1), second)] {
            let history = try HistoryWriter(directory.appendingPathComponent("writer-\(writer).jsonl"))
            try history.append(HistoryRecord(writer: writer, seq: 1, state: .intent, t: Double(writer % 7),
                                             ops: [HistoryOp(op: "insert", entity: "Note", id: id, hash: "h-\(writer)")]))
            try history.append(HistoryRecord(writer: writer, seq: 1, state: .ack, t: Double(writer % 7) + 0.1))
        }
        return (HistoryReader.transactions(in: directory), first, second)
    }

    @Test func aRoundSeesOnlyItsOwnWritersOnTopOfItsBase() throws {
        let scratch = try Scratch("round-oracle")
        let (transactions, first, second) = try Self.histories(scratch, reuse: false)
        let all = Oracle(transactions: transactions, initial: [:])
        #expect(all.writers == [1, 100_001])
        // Round 1 began from a store holding round 0's note.
        let round = all.round(1, base: [first: "h-1"])
        #expect(round.writers == [100_001] && round.collisions.isEmpty)
        var state = StoreState()
        state.notes = [first: "h-1"]
        // Before its commit: a prefix of round 1 (its base), and round 0's note is an initial object, not a stranger.
        #expect(round.match(state).map(\.prefixes) == [[0]] && round.strangers(state).isEmpty)
        state.notes[second] = "h-100001"
        #expect(round.match(state).map(\.prefixes) == [[1]])
        // The restored note gone: a finding of the round.
        state.notes[first] = nil
        #expect(round.strangers(state) == ["initial object \(first.uuidString) is missing"])
        // Round 0's oracle knows nothing of round 1's note.
        #expect(all.round(0, base: [:]).strangers(state) == ["Note \(second.uuidString) is in no history and not in the initial store"])
    }

    @Test func anIdentitySharedAcrossRoundsIsACollision() throws {
        let scratch = try Scratch("round-collision")
        let (transactions, first, _) = try Self.histories(scratch, reuse: true)
        let round = Oracle(transactions: transactions, initial: [:]).round(1, base: [first: "h-1"])
        #expect(round.collisions == ["writer 100001 tx 1 inserts Note \(first.uuidString), which the store it began from already holds"])
    }
}
