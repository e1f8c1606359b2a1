import Checks
import Foundation
import StoreModel

/// The live store as the run began with it: its objects (the oracle's initial objects) and the metadata every
/// backup is held to (`metadata-preserved`). A fresh store has none at the start (its first writer makes it),
/// so its metadata is read, from a private copy, the first time a backup needs it; its objects stay out of
/// `state`, which holds the store's initial objects.
final class LiveStoreAtStart {
    private(set) var state = StoreState()
    private let fresh: Bool

    init(fresh: Bool) {
        self.fresh = fresh
    }

    /// Reads the store the run begins with (nothing for a fresh store).
    func read(_ live: URL) throws {
        state = fresh ? StoreState() : try StoreState.read(live)
    }

    /// The store's initial objects, identity -> hash.
    var objects: [UUID: String] { state.notes.merging(state.others) { first, _ in first } }

    /// The live store's metadata now, for the record.
    func metadata(_ live: URL) -> RunRecord.Entry {
        if fresh, state.versionHashes.isEmpty, let made = try? StoreState.read(live) {
            state.versionHashes = made.versionHashes
            state.storeUUID = made.storeUUID
        }
        var metadata = StoreState()
        metadata.versionHashes = state.versionHashes
        metadata.storeUUID = state.storeUUID
        return .liveMetadata(metadata)
    }
}
