import Checks
import Foundation
import LifeboatTestSupport
import StoreModel
import Testing

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
