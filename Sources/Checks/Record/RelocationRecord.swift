import Foundation

/// One `relocate` that finished, as measured: where the store went, when, which processes kept the old store
/// open across it, and the stores a verdict reads (the moved store right after the move, the store the app uses
/// at the end, the old store's files). `relocation-carries-commits` judges it.
public struct RelocationRecord: Sendable, Codable {
    public var label: String
    public var from: String
    public var to: String
    public var start: Double
    public var end: Double
    /// The round of writers the move ended.
    public var round: Int
    /// Writers and readers that kept the old store open across the move (`across_relocate: keep`).
    public var kept: [String]
    /// The moved store right after the move (what the writers the move stopped are held to).
    public var moved: StoreState?
    /// The store the app uses at the end of the run (what kept writers are held to).
    public var final: StoreState?
    /// The old store as its files were left, and their sizes.
    public var old: StoreState?
    public var oldFiles: RelocationCheck.OldFiles
    /// Kept readers: read transactions begun after the move ended.
    public var readsAfterMove: [String: Int]
    /// How a process ended when it ended on its own with a non-zero status.
    public var failures: [String: String]

    public init(label: String, from: String, to: String, start: Double, end: Double, round: Int, kept: [String], moved: StoreState?,
                final: StoreState?, old: StoreState?, oldFiles: RelocationCheck.OldFiles, readsAfterMove: [String: Int], failures: [String: String]) {
        self.label = label
        self.from = from
        self.to = to
        self.start = start
        self.end = end
        self.round = round
        self.kept = kept
        self.moved = moved
        self.final = final
        self.old = old
        self.oldFiles = oldFiles
        self.readsAfterMove = readsAfterMove
        self.failures = failures
    }
}
