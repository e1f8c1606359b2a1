import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An fsync that a rule fails with EIO while an `FsyncFailure` setting is in force: the file's unsynced data is
/// left as that file system leaves it (see `FsyncFailure`, the one statement of the model).
extension FaultFileSystem {
    /// Applies `semantics` to the file behind handle `h`, logs the failed fsync and returns -EIO.
    func failedFsync(_ h: OpenFile, _ path: String, opName: LoggedOp, ruleID: String?, _ semantics: FsyncFailure) -> Int32 {
        let failed = failSync(ino: h.ino, semantics)
        let what = semantics.keepsFailedBytesInMemory
            ? "unsynced data kept in memory, marked clean (not written)"
            : "file reverted to its durable state"
        logOp(opName, path, result: Int64(-EIO), fault: ruleID) {
            $0.ino = h.ino; $0.dropped = failed; $0.detail = "fsync-failure \(semantics.rawValue): \(what)"
        }
        log?.flush()
        invalidateKernelCaches([path], inos: [h.ino])
        return -EIO
    }

    /// The file's unsynced ops fail: under ext4 and xfs they become clean bytes (`FileOverlay.failedSync`), under
    /// btrfs they are dropped. Waits for a running fsync of the same inode. Returns the failed ops' seqs.
    func failSync(ino: UInt64, _ semantics: FsyncFailure) -> [UInt64] {
        guard semantics.keepsFailedBytesInMemory else { return dropPending(ino: ino) }
        while true {
            let failed: [UInt64]? = state.withLock { s in
                if s.syncing.contains(ino) { return nil }
                guard var ov = s.overlays.removeValue(forKey: ino) else { return [] }
                defer { s.overlays[ino] = ov }
                return ov.failedSync(persistSize: semantics.persistsFailedSize, store: &s.store)
            }
            if let failed { return failed }
            usleep(100)
        }
    }
}
