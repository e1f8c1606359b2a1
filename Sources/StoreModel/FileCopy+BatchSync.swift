import CLifeboatSys
import Dispatch
import Foundation
import Synchronization

extension FileCopy {
    /// How many fsyncs are in flight at once when a folder of copies is made durable. The copies themselves
    /// stay one after another: on XFS, concurrent reflink clones measured slower (2.3-3.2 s against 1.8-2.0 s for
    /// a 1 GB store's replace), they serialise on the file system's own locks.
    static let syncWidth = 16

    /// fsyncs every file, many at once, and returns when all are durable (throws the first failure).
    ///
    /// Why concurrent and not one after another: a folder copied by reflink costs almost nothing to write, so
    /// its durability is all fsync latency, one journal commit per file when they run in turn. Issued together,
    /// the file system folds them into a few commits (XFS and ext4 both batch concurrent log forces), and the
    /// guarantee is the same: every file is durable before the caller syncs the directory that names them.
    /// Not syncfs(2) in general: FUSE never passes it to the daemon, so on FaultFS nothing would be made durable,
    /// and it writes back every dirty file of the file system, not only these; per-file fsyncs reach every file
    /// system, FaultFS included. A folder of many clones is the exception (`syncClonesAll`).
    static func syncAll(_ files: [URL]) throws {
        guard !files.isEmpty else { return }
        if files.count == 1 { return try syncOne(files[0]) }
        let firstError = Mutex<(any Error)?>(nil)
        let slots = DispatchSemaphore(value: syncWidth)
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "lifeboat.filecopy.sync", attributes: .concurrent)
        for file in files {
            slots.wait()
            group.enter()
            queue.async {
                defer { slots.signal(); group.leave() }
                do { try syncOne(file) } catch { firstError.withLock { if $0 == nil { $0 = error } } }
            }
        }
        group.wait()
        if let error = firstError.withLock({ $0 }) { throw error }
    }

    /// File systems with clones on which one syncfs(2) makes a folder of clones durable in one journal commit:
    /// XFS and btrfs (statfs f_type). Not FUSE (FaultFS never sees syncfs), not ext4 (no clones).
    static let cloningFileSystems: Set<Int> = [0x5846_5342, 0x9123_683E]

    /// Below this many files, per-file fsyncs are cheap enough and touch nothing else.
    static let syncfsThreshold = 64

    /// Makes a folder of reflink clones durable. A clone writes no data, only metadata in the file system's
    /// journal, so thousands of clones (3,780 attachments of a 1 GB store) cost thousands of open/fsync/close
    /// round trips, most of a replace's time on XFS, where one syncfs(2) commits the journal once for all of
    /// them. syncfs also writes back other dirty files of that file system (more work, never less durability);
    /// since Linux 5.8 it reports writeback errors as fsync does. Elsewhere (ext4, FUSE, a few files, files in
    /// more than one folder) each file is fsynced as `syncAll` does.
    static func syncClonesAll(_ files: [URL]) throws {
        guard files.count >= syncfsThreshold else { return try syncAll(files) }
        let folder = files[0].deletingLastPathComponent()
        guard files.allSatisfy({ $0.deletingLastPathComponent().path == folder.path }) else { return try syncAll(files) }
        let fd = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return try syncAll(files) }
        defer { close(fd) }
        guard cloningFileSystems.contains(lb_fstatfs_type(fd)) else { return try syncAll(files) }
        guard lb_syncfs(fd) == 0 else { throw StoreError.io("syncfs of \(folder.path): \(String(cString: strerror(errno)))") }
    }

    private static func syncOne(_ file: URL) throws {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io("cannot open \(file.path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io("fsync \(file.path): \(String(cString: strerror(errno)))") }
    }
}
