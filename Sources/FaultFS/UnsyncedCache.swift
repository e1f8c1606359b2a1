import Foundation
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// One data change to a file that is not durable yet. The backing file does not hold it until fsync.
struct PendingDataOp: Sendable {
    enum Kind: Sendable {
        /// Bytes written at an offset.
        case write(offset: Int64, data: Data)
        /// Size set by truncate/ftruncate or a size-changing fallocate.
        case truncate(size: Int64)
        /// A range reading as zeros (fallocate PUNCH_HOLE / ZERO_RANGE).
        case zero(offset: Int64, length: Int64)
        /// A copy_file_range already performed on the backing file (so XFS reflinks work); keeps what is
        /// needed to undo it (the old bytes and size) and to redo it (the new bytes) if a crash drops or
        /// keeps it. Only ever the first pending op of its file.
        case applied(offset: Int64, old: Data, oldSize: Int64, new: Data)
    }

    let seq: UInt64
    let kind: Kind

    /// Bytes this op changes (for status and the op log).
    var byteCount: Int64 {
        switch kind {
        case .write(_, let d): return Int64(d.count)
        case .truncate: return 0
        case .zero(_, let l): return l
        case .applied(_, _, _, let n): return Int64(n.count)
        }
    }

    var isWrite: Bool { if case .write = kind { return true } else { return false } }
}

/// The unsynced state of one backing inode: its pending ops in order and the size they imply.
/// Keyed by inode, not path, so renames and hard links see one overlay.
struct FileOverlay: Sendable {
    /// Our own read-write descriptor of the backing inode (reopened via /proc/self/fd), used to sync.
    var fd: Int32
    /// Size after all pending ops.
    var logicalSize: Int64
    var ops: [PendingDataOp] = []
    /// Last path seen for this inode (status output and cache invalidation only).
    var pathHint: String

    var unsyncedBytes: Int64 { ops.reduce(0) { $0 + $1.byteCount } }

    /// Size after applying an op to a file of size `size`.
    static func size(after kind: PendingDataOp.Kind, from size: Int64) -> Int64 {
        switch kind {
        case .write(let off, let d): return d.isEmpty ? size : max(size, off + Int64(d.count))
        case .truncate(let s): return s
        case .zero: return size
        case .applied(let off, _, _, let new): return max(size, off + Int64(new.count))
        }
    }

    /// Fills `buffer` (which covers file offsets [offset, offset+buffer.count) and already holds the backing
    /// bytes, zero past the backing EOF) with the effect of `ops`, in order. Correct even when a sync is
    /// part-way through applying the same ops to the backing file: every op overwrites its whole range.
    static func merge(_ ops: some Collection<PendingDataOp>, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64) {
        let end = offset + Int64(buffer.count)
        func overlap(_ o: Int64, _ l: Int64) -> (Int, Int)? {
            let lo = max(o, offset), hi = min(o + l, end)
            return lo < hi ? (Int(lo - offset), Int(hi - lo)) : nil
        }
        for op in ops {
            switch op.kind {
            case .write(let o, let d):
                if let (at, n) = overlap(o, Int64(d.count)) {
                    d.withUnsafeBytes { src in
                        buffer.baseAddress!.advanced(by: at)
                            .copyMemory(from: src.baseAddress!.advanced(by: Int(offset + Int64(at) - o)), byteCount: n)
                    }
                }
            case .truncate(let s):
                if s < end {
                    let from = Int(max(0, s - offset))
                    memset(buffer.baseAddress!.advanced(by: from), 0, buffer.count - from)
                }
            case .zero(let o, let l):
                if let (at, n) = overlap(o, l) { memset(buffer.baseAddress!.advanced(by: at), 0, n) }
            case .applied:
                break // already in the backing file
            }
        }
    }

    /// Applies one op to a backing descriptor. Returns 0 or -errno.
    static func apply(_ kind: PendingDataOp.Kind, to fd: Int32) -> Int32 {
        switch kind {
        case .write(let o, let d):
            return d.withUnsafeBytes { pwriteAll(fd, $0, o) }
        case .truncate(let s):
            return ftruncate(fd, off_t(s)) == 0 ? 0 : -errno
        case .zero(let o, let l):
            if lb_fallocate(fd, LB_FALLOC_FL_ZERO_RANGE | LB_FALLOC_FL_KEEP_SIZE, o, l) == 0 { return 0 }
            let zeros = Data(count: Int(l))
            return zeros.withUnsafeBytes { pwriteAll(fd, $0, o) }
        case .applied:
            return 0
        }
    }

    /// Applies ops in order, merging runs of back-to-back writes (SQLite's WAL frame header + page) into
    /// one pwrite. Returns 0 or -errno.
    static func applyCoalesced(_ ops: [PendingDataOp], to fd: Int32) -> Int32 {
        var i = 0
        while i < ops.count {
            guard case .write(let off, let first) = ops[i].kind else {
                let r = apply(ops[i].kind, to: fd)
                if r != 0 { return r }
                i += 1
                continue
            }
            var run = first
            var j = i + 1
            while j < ops.count, case .write(let o, let d) = ops[j].kind, o == off + Int64(run.count) {
                run.append(d)
                j += 1
            }
            let r = run.withUnsafeBytes { pwriteAll(fd, $0, off) }
            if r != 0 { return r }
            i = j
        }
        return 0
    }

    /// Undoes an `.applied` op (restores the old bytes and size).
    static func revert(_ kind: PendingDataOp.Kind, on fd: Int32) -> Int32 {
        guard case .applied(let o, let old, let oldSize, _) = kind else { return 0 }
        let r = old.withUnsafeBytes { pwriteAll(fd, $0, o) }
        if r != 0 { return r }
        return ftruncate(fd, off_t(oldSize)) == 0 ? 0 : -errno
    }
}

/// pwrite until done. Returns 0 or -errno.
func pwriteAll(_ fd: Int32, _ buf: UnsafeRawBufferPointer, _ offset: Int64) -> Int32 {
    var done = 0
    while done < buf.count {
        let n = pwrite(fd, buf.baseAddress!.advanced(by: done), buf.count - done, off_t(offset) + off_t(done))
        if n < 0 {
            if errno == EINTR { continue }
            return -errno
        }
        done += n
    }
    return 0
}

/// pread until `buf` is full or EOF. Returns bytes read or -errno.
func preadAll(_ fd: Int32, _ buf: UnsafeMutableRawBufferPointer, _ offset: Int64) -> Int {
    var done = 0
    while done < buf.count {
        let n = pread(fd, buf.baseAddress!.advanced(by: done), buf.count - done, off_t(offset) + off_t(done))
        if n < 0 {
            if errno == EINTR { continue }
            return -Int(errno)
        }
        if n == 0 { break }
        done += n
    }
    return done
}
