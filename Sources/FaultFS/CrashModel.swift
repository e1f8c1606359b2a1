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

/// What a file holds after an fsync (or fdatasync) that returned EIO, as the file system under the program would
/// leave it (`faultfs mount --fsync-failure`, the `fsync-failure` verb, scenario `faults.fsync_failure`). It applies
/// to every fsync a rule fails with EIO (`errno EIO` or `fsync-fail-clean` on `fsync`); nil keeps FaultFS's older
/// behaviour (`errno EIO` leaves the data pending, so a retry persists it; `fsync-fail-clean` drops it). The model
/// is CuttleFS's (Rebello et al., "Can Applications Recover from fsync Failures?", USENIX ATC 2020, and its
/// source, github.com/WiscADSL/cuttlefs, `cuttlefs/fsyncs.py`); the table with each behaviour's source is in
/// docs/faultfs.md ("fsync failure semantics").
///
/// The failed fsync's writeback fails as a whole: every unsynced data op of the file at that moment is a failed
/// write (FaultFS does not choose a subset, so nothing here is random). Then:
///
/// | | ext4 (data=ordered) | xfs | btrfs |
/// |---|---|---|---|
/// | reads right after | the new bytes (pages kept, marked clean) | the new bytes (pages kept, clean) | the durable bytes and size (state reverted) |
/// | a later fsync that succeeds persists | only what was written after the failure | the same | the same |
/// | after a crash, failed overwrites read | the old bytes | the old bytes | the old bytes |
/// | after a crash, a failed append | the new size, zeros where the data was | the old size | the old size |
///
/// Truncates and zero ranges pending at the failure are metadata and persist under ext4 and xfs (they are in the
/// journal or log the fsync commits); btrfs reverts them with the data. Bytes left clean stay readable until a
/// crash, until a later write, truncate or zero range replaces them, or until the file's last name is gone (the
/// kernel may evict clean pages under memory pressure, after which the disk's bytes show; FaultFS never does). A
/// later write into a 4096-byte page that holds clean bytes dirties the whole page again, as the page cache does:
/// its fsync then writes them too (the re-dirtying workaround the paper's takeaway #7 describes for ext4 and XFS).
public enum FsyncFailure: String, Sendable, Codable, CaseIterable, Equatable {
    case ext4, xfs, btrfs

    /// Whether the failed writes' new size persists (ext4's journal commits the inode size with the allocation;
    /// XFS moves the on-disk size only when a write completes without error).
    var persistsFailedSize: Bool { self == .ext4 }
    /// Whether the page cache keeps the failed bytes (ext4, xfs) or the file reverts to its durable state (btrfs).
    var keepsFailedBytesInMemory: Bool { self != .btrfs }
}
