import Foundation

/// What the op log shows the live store's files went through over a FaultFS run, on the run's clock, for the
/// timeline of the run report: the `-wal`'s length (the frames since its last reset, so a checkpoint that resets
/// it shows as a drop), the checkpoints (bursts of writes into the database file: in WAL mode only a checkpoint
/// writes there), and the fsyncs of every process other than the app's writers (the backup's, the restore's, a
/// tool's), with the app's own counted. Measured once at the end of the run; nothing judges it.
public struct StoreActivity: Sendable, Codable, Equatable {
    /// One moment worth a mark on the timeline: what happened and who did it.
    public struct Mark: Sendable, Codable, Equatable {
        public var t: Double
        public var what: String
        public var actor: String?
        public init(t: Double, what: String, actor: String?) {
            self.t = t
            self.what = what
            self.actor = actor
        }
    }

    /// The `-wal`'s length in bytes over time (at most one sample per 20 ms, its largest).
    public var walBytes: [Invariants.SizeSample] = []
    public var checkpoints: [Mark] = []
    /// Fsyncs, fdatasyncs, folder fsyncs and sync(2)s on the volume by processes other than the app's writers
    /// and readers and the harness itself.
    public var fsyncs: [Mark] = []
    /// The app's own fsyncs (every commit under `synchronous: full` makes one): counted, not marked.
    public var appFsyncs = 0

    public init() {}
}
