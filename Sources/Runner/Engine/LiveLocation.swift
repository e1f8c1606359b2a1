import Checks
import Foundation
import StoreModel

/// Where the live store is: the one place every part of a run asks. A `relocate` step moves it; from then on
/// every event (backups, restores, syncs, checkpoints, cleanups), the writers and readers started after the move,
/// the sidecars started after it and every end-of-run check use the store at its new place.
final class LiveLocation {
    /// The live store after the last `relocate` (nil: where the run generated it).
    private(set) var url: URL?

    /// One move that finished, with what was running when it began.
    struct Move {
        var index: Int
        var label: String
        var from: URL
        var to: URL
        var start: Double
        var end: Double
        /// The round of writers the move ended.
        var round: Int
        /// Writers and readers that kept the old store open across the move (`across_relocate: keep`).
        var kept: [ChildRegistry.Child]
        /// The moved store as read right after the move (what the writers stopped before it are held to).
        var moved: StoreState?
    }
    private(set) var moves: [Move] = []

    /// The live store now: where the last `relocate` put it, or `original`.
    func current(_ original: URL) -> URL { url ?? original }

    /// A move that finished: the live store is `move.to` from now on.
    func moved(_ move: Move) {
        url = move.to
        moves.append(move)
    }
}
