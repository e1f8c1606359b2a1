import Foundation

extension Scenario {
    /// `faults.fsync_failure`: which file system's behaviour FaultFS gives a file after an fsync a rule fails with
    /// EIO (FaultFS's `--fsync-failure`, whose `FsyncFailure` states the model; docs/faultfs.md has the table and its
    /// sources). The same three names as FaultFS's enum, kept here so the scenario model needs no FUSE target.
    public enum FsyncFailure: String, Sendable, Equatable, Codable, CaseIterable {
        /// ext4 data=ordered: the failed bytes stay readable but clean; a crash keeps the new size with zeros.
        case ext4
        /// XFS: as ext4 in memory; a crash keeps the old size.
        case xfs
        /// Btrfs: the file reverts to its last durable state at once.
        case btrfs
    }
}
