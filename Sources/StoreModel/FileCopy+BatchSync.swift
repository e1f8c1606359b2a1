import Dispatch
import Foundation
import Synchronization

extension FileCopy {
    /// How many copies (and their fsyncs) are in flight at once when a folder is copied durably.
    static let syncWidth = 32

    /// Copies each (source, destination) pair and fsyncs the copy, many at once; returns when every copy is
    /// durable (throws the first failure).
    ///
    /// Why concurrent and not one after another: a folder copied by reflink costs almost nothing to write, so
    /// its durability is all fsync latency, one journal commit per file when they run in turn. Issued together,
    /// the file system folds them into a few commits (XFS and ext4 both batch concurrent log forces), and the
    /// guarantee is the same: every file is durable before the caller syncs the directory that names them.
    /// Not syncfs(2): it would also work natively, but FUSE never passes it to the daemon, so on FaultFS
    /// nothing would be made durable; per-file fsyncs reach every file system, FaultFS included.
    static func copyAllDurably(_ pairs: [(URL, URL)], allowClone: Bool) throws {
        try concurrently(pairs) { try copy($0.0, to: $0.1, allowClone: allowClone, sync: true) }
    }

    /// fsyncs every file, many at once (see `copyAllDurably`).
    static func syncAll(_ files: [URL]) throws {
        try concurrently(files) { try syncOne($0) }
    }

    private static func concurrently<T: Sendable>(_ items: [T], _ body: @escaping @Sendable (T) throws -> Void) throws {
        if items.count <= 1 { return try items.forEach(body) }
        let firstError = Mutex<(any Error)?>(nil)
        let slots = DispatchSemaphore(value: syncWidth)
        let group = DispatchGroup()
        let queue = DispatchQueue(label: "lifeboat.filecopy.sync", attributes: .concurrent)
        for item in items {
            slots.wait()
            group.enter()
            queue.async {
                defer { slots.signal(); group.leave() }
                do { try body(item) } catch { firstError.withLock { if $0 == nil { $0 = error } } }
            }
        }
        group.wait()
        if let error = firstError.withLock({ $0 }) { throw error }
    }

    private static func syncOne(_ file: URL) throws {
        let fd = open(file.path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw StoreError.io("cannot open \(file.path) to sync it: \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        guard fsync(fd) == 0 else { throw StoreError.io("fsync \(file.path): \(String(cString: strerror(errno)))") }
    }
}
