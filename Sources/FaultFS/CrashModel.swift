/// What survives a simulated crash. The daemon keeps all non-durable state (unsynced data ops, directory
/// entry changes since the last directory fsync) and a crash decides, deterministically from the seed and
/// the op sequence, which of those pending ops reach the backing directory.
public enum CrashMode: Sendable, Equatable {
    /// Only durable state survives.
    case keepNone
    /// The first N pending ops (data and directory-entry ops, in seq order) survive.
    case keepPrefix(Int)
    /// Pending ops before the last pending write survive; the last write is cut at a 512-byte sector
    /// boundary chosen by the seed and the rest of its range is filled with zeros or seeded garbage;
    /// pending ops after it are dropped.
    case torn(fill: TornFill)
    /// A seeded random subset of the pending ops survives (each with probability 1/2).
    case reorder

    /// The name used on the wire and on the command line.
    public var name: String {
        switch self {
        case .keepNone: return "keep-none"
        case .keepPrefix: return "keep-prefix"
        case .torn: return "torn"
        case .reorder: return "reorder"
        }
    }
}

/// How the lost tail of a torn write reads after the crash.
public enum TornFill: String, Codable, Sendable {
    case zeros, garbage
}

/// What a crash did, returned by the `crash` verb.
public struct CrashReport: Codable, Sendable, Equatable {
    public var mode: String
    /// Seqs of pending ops that survived (made it to the backing directory).
    public var kept: [UInt64]
    /// Seqs of pending ops that were dropped.
    public var dropped: [UInt64]
    /// For torn: the torn write's seq and the absolute file offset where it was cut.
    public var tornSeq: UInt64?
    public var tornCut: Int64?
    /// Open files whose handles now fail with EIO.
    public var staleHandles: Int
}

/// Whether a durable operation (fsync, fdatasync, directory fsync, sync-all, and the settling of a crash) also
/// flushes the host device under the backing directory (`faultfs mount --host-sync on|off`, scenario
/// `faults.host_sync`).
///
/// The simulated crash is FaultFS's own: what is durable is decided in the daemon (an fsync moves the file's
/// unsynced ops into the backing file, a directory fsync settles entry changes) and a crash replays or drops
/// what is still pending. Either way the surviving bytes are written to the backing file before the call
/// returns, so the host's page cache holds exactly the durable state, and every check after a crash reads
/// the backing directory through that same cache. Flushing the host device on top only protects the backing
/// directory against a real power cut of the host, and in drills the backing directory is scratch that no
/// verdict outlives. So `off` changes no verdict (every shipped drill is run in both modes by
/// `HostSyncDrillTests` and `scripts/host-sync-drills.sh`); it removes the host's flush latency from each
/// commit. What `off` gives up: an EIO from the host device at fsync (a real disk error) is not reported to
/// the program under test, and the backing directory may be lost if the host itself loses power.
public enum HostSync: String, Sendable, Codable, Equatable {
    case on, off

    /// The default of `faultfs mount` and of scenarios: `off`, chosen from the figures in docs/performance.md (the
    /// host flush was nearly all of an SQLite commit's time on FaultFS, and LazyFS never flushes the host either).
    public static let defaultSetting: HostSync = .off
}
