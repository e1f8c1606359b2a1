import Foundation
import CLifeboatSys
#if canImport(Glibc)
import Glibc
#endif

/// One data change to a file that is not durable yet, in the order it was made. The record carries no bytes:
/// a write's bytes are in the file's extents (see `FileOverlay`), found by its seq.
struct PendingDataOp: Sendable {
    enum Kind: Sendable {
        /// Bytes written at an offset.
        case write(offset: Int64, length: Int64)
        /// Size set by truncate/ftruncate or a size-changing fallocate.
        case truncate(size: Int64)
        /// A range reading as zeros (fallocate PUNCH_HOLE / ZERO_RANGE).
        case zero(offset: Int64, length: Int64)
        /// A copy_file_range already performed on the backing file (so XFS reflinks work); keeps what undoing
        /// it at a crash needs (the old bytes and size). Only ever the first pending op of its file.
        case applied(offset: Int64, old: Data, oldSize: Int64, length: Int64)
    }

    let seq: UInt64
    let kind: Kind

    /// Bytes this op changes (for status and the op log).
    var byteCount: Int64 {
        switch kind {
        case .write(_, let l): return l
        case .truncate: return 0
        case .zero(_, let l): return l
        case .applied(_, _, _, let l): return l
        }
    }

    var isWrite: Bool { if case .write = kind { return true } else { return false } }
}

/// A run of unsynced bytes of one file: [offset, offset+length) as written by the op `seq`.
struct Extent: Sendable {
    var offset: Int64
    var length: Int64
    var seq: UInt64
    var source: ByteSource
    var end: Int64 { offset + length }

    /// The part of this extent inside [lo, hi) (which must overlap it).
    func clipped(_ lo: Int64, _ hi: Int64) -> Extent {
        let a = max(lo, offset), b = min(hi, end)
        return Extent(offset: a, length: b - a, seq: seq, source: source.slice(from: a - offset, length: b - a))
    }
}

/// The unsynced state of one backing inode. Keyed by inode, not path, so renames and hard links share it.
///
/// **Current bytes** are an extent map: sorted, non-overlapping extents, each tagged with the seq of the write
/// (or zero range) that last covered it. A write replaces what it covers, so a read is a binary search plus
/// the extents it touches (O(log n + k)), and the bytes held are the distinct unsynced bytes, whatever the
/// number of writes. Bytes at or past `validSize` that no extent covers read as zeros (a pending truncate
/// cut them off the backing file); below it they come from the backing file.
///
/// **Write order for the crash modes.** `ops` lists every pending op in order as (kind, offset, length, seq),
/// without bytes. keep-none needs nothing else. keep-prefix N, torn and reorder keep an arbitrary subset of
/// the ops and must rebuild the file as if exactly that subset had reached the disk in order, so they need
/// each kept write's *own* bytes, including bytes a later (dropped) write overwrote: with writes W1 "A" then
/// W2 "B" over the same range, keep-prefix 1 must leave "A", which the current map no longer holds. Keeping
/// only the latest bytes per extent would silently turn keep-prefix 1 into "A or B". So a covered piece is
/// not discarded: it moves, still tagged with its write's seq, to `superseded`, and its bytes to the spill
/// file (disk, not RAM). Every byte of every pending write is then in exactly one place (the map or
/// `superseded`), a write's bytes are the pieces tagged with its seq, and replaying any subset in seq order
/// reproduces the file exactly. The disk cost is the bytes written since the last fsync (what the old
/// in-memory op list held in RAM); RAM holds one small record per op and per piece.
///
/// Freed at fsync (everything up to the synced seq), at a crash, at fsync-fail-clean, and when the inode is
/// gone for good (last link's unlink durable, no handle open). A truncate moves the cut bytes out of RAM
/// (they stay on disk while a crash could still keep an earlier write of them).
struct FileOverlay: Sendable {
    /// Our own read-write descriptor of the backing inode (reopened via /proc/self/fd), used to sync.
    var fd: Int32
    /// Size after all pending ops.
    var logicalSize: Int64
    /// Backing bytes from here on are not part of the file (cut by a pending truncate).
    var validSize: Int64
    var ops: [PendingDataOp] = []
    /// Current unsynced bytes, sorted by offset, non-overlapping.
    var extents: [Extent] = []
    /// Bytes of pending writes that later ops covered or cut, kept (spilled) for exact crash replay.
    var superseded: [Extent] = []
    /// Bytes an fsync failed to write under ext4 or xfs semantics (`FsyncFailure`): still read, as the kernel's
    /// clean pages are, but never written by a later fsync or a crash. Sorted, non-overlapping, beneath `extents`;
    /// a later write, truncate or zero range over them drops them (see `failedSync`).
    var clean: [Extent] = []
    /// After a failed fsync under xfs semantics: the backing file's size stays behind `logicalSize` (the failed
    /// appends' size never reached the disk), and a later fsync moves it only as far as the bytes it writes (XFS sets
    /// the on-disk size at write completion). A truncate sets the size outright and ends this.
    var sizeLags = false
    /// Last path seen for this inode (status output and cache invalidation only).
    var pathHint: String

    init(fd: Int32, size: Int64, pathHint: String) {
        self.fd = fd
        self.logicalSize = size
        self.validSize = size
        self.pathHint = pathHint
    }

    var unsyncedBytes: Int64 { ops.reduce(0) { $0 + $1.byteCount } }

    /// Whether reads must go through this overlay: pending ops, or bytes a failed fsync left clean in memory.
    var isVisible: Bool { !ops.isEmpty || !clean.isEmpty }

    /// Size after applying an op to a file of size `size`.
    static func size(after kind: PendingDataOp.Kind, from size: Int64) -> Int64 {
        switch kind {
        case .write(let off, let l): return l == 0 ? size : max(size, off + l)
        case .truncate(let s): return s
        case .zero: return size
        case .applied(let off, _, _, let l): return max(size, off + l)
        }
    }

    // MARK: Recording

    /// Records a write of `bytes` at `offset` as op `seq`. Returns 0 or -errno (spill file full).
    mutating func write(_ bytes: UnsafeRawBufferPointer, at offset: Int64, seq: UInt64, store: inout SpillStore) -> Int32 {
        let n = Int64(bytes.count)
        // A write into a page that holds bytes a failed fsync left clean dirties the whole page again: those bytes
        // join this write's op (its recorded range widens to cover them), so its fsync or a crash keeping it writes them.
        var source: ByteSource?
        if n > 0 {
            switch store.store(bytes) {
            case .failure(let e): return -e.rawValue
            case .success(let src): source = src
            }
        }
        let redirtied = n > 0 ? redirtyCleanPages(around: offset, offset + n, seq: seq, store: &store) : []
        if let source { cover(offset, offset + n, with: Extent(offset: offset, length: n, seq: seq, source: source), store: &store) }
        var lo = offset, hi = offset + n
        for piece in redirtied {
            lo = min(lo, piece.offset)
            hi = max(hi, piece.end)
        }
        ops.append(PendingDataOp(seq: seq, kind: .write(offset: lo, length: hi - lo)))
        logicalSize = Self.size(after: .write(offset: offset, length: n), from: logicalSize)
        return 0
    }

    /// Records a truncate to `size` as op `seq`.
    mutating func truncate(to size: Int64, seq: UInt64, store: inout SpillStore) {
        sizeLags = false
        cover(size, Int64.max, with: nil, store: &store)
        validSize = min(validSize, size)
        logicalSize = size
        ops.append(PendingDataOp(seq: seq, kind: .truncate(size: size)))
    }

    /// Records a zeroed range (within the current size) as op `seq`.
    mutating func zero(offset: Int64, length: Int64, seq: UInt64, store: inout SpillStore) {
        let hi = min(offset + length, logicalSize)
        if hi > offset {
            cover(offset, hi, with: Extent(offset: offset, length: hi - offset, seq: seq, source: .zeros), store: &store)
        }
        ops.append(PendingDataOp(seq: seq, kind: .zero(offset: offset, length: length)))
    }

    /// Records a copy already applied to the backing file.
    mutating func applied(_ kind: PendingDataOp.Kind, seq: UInt64) {
        ops.append(PendingDataOp(seq: seq, kind: kind))
        logicalSize = Self.size(after: kind, from: logicalSize)
    }

    /// Index of the first extent ending after `offset`.
    func firstIndex(endingAfter offset: Int64) -> Int { Self.firstIndex(in: extents, endingAfter: offset) }

    /// Index of the first extent of the sorted `list` ending after `offset` (binary search).
    static func firstIndex(in list: [Extent], endingAfter offset: Int64) -> Int {
        var lo = 0, hi = list.count
        while lo < hi {
            let mid = (lo + hi) / 2
            if list[mid].end <= offset { lo = mid + 1 } else { hi = mid }
        }
        return lo
    }

    /// Makes [lo, hi) hold `new` (or nothing): the covered parts of current extents move to `superseded`
    /// (out of RAM), the parts outside stay.
    mutating func cover(_ lo: Int64, _ hi: Int64, with new: Extent?, store: inout SpillStore) {
        dropClean(lo, hi, store: &store)
        let i = firstIndex(endingAfter: lo)
        var j = i
        var replacement: [Extent] = []
        while j < extents.count, extents[j].offset < hi {
            let e = extents[j]
            if e.offset < lo { replacement.append(e.clipped(e.offset, lo)) }
            // A split memory extent becomes copies of its parts, which sum to the original: only the evicted
            // part changes the RAM count.
            var gone = e.offset >= lo && e.end <= hi ? e : e.clipped(lo, hi)
            gone.source = store.evict(gone.source)
            superseded.append(gone)
            if e.end > hi { replacement.append(e.clipped(hi, e.end)) }
            j += 1
        }
        if let new { replacement.insert(new, at: replacement.first.map { $0.offset < lo ? 1 : 0 } ?? 0) }
        if i == extents.count && j == i {
            extents.append(contentsOf: replacement)
        } else {
            extents.replaceSubrange(i..<j, with: replacement)
        }
    }

    // MARK: Holes

    /// lseek SEEK_DATA (`data` true) or SEEK_HOLE from `offset` over the logical file, answered per block of
    /// `block` bytes as a block file system does (a block holding any data is data): unsynced writes are data,
    /// zeroed ranges (punch hole, zero range) and what a pending truncate cut or extended are holes, and below
    /// `validSize` the backing file answers (`backing(offset, whence)` is lseek on it, nil for ENXIO).
    /// Returns the offset or -ENXIO.
    func seek(data: Bool, from offset: Int64, block: Int64, backing: (Int64, Int32) -> Int64?) -> Int64 {
        if offset < 0 || offset >= logicalSize { return -Int64(ENXIO) }
        let start = offset / block * block
        if data {
            guard let d = firstByte(data: true, from: start, backing: backing) else { return -Int64(ENXIO) }
            return max(offset, d / block * block)
        }
        var b = start
        while b < logicalSize {
            guard let d = firstByte(data: true, from: b, backing: backing), d < b + block else { break }
            let end = firstByte(data: false, from: d, backing: backing) ?? logicalSize
            b = (end + block - 1) / block * block
        }
        return min(logicalSize, max(offset, b))
    }

    /// The first byte at or after `from` that is data (or, for `data` false, a hole), byte-exact; nil when
    /// there is none before the logical size.
    func firstByte(data: Bool, from: Int64, backing: (Int64, Int32) -> Int64?) -> Int64? {
        var x = from
        while x < logicalSize {
            let i = firstIndex(endingAfter: x)
            if i < extents.count, extents[i].offset <= x {
                let isData: Bool
                if case .zeros = extents[i].source { isData = false } else { isData = true }
                if isData == data { return x }
                x = extents[i].end
                continue
            }
            let next = min(logicalSize, i < extents.count ? extents[i].offset : logicalSize)
            if x >= validSize {
                if !data { return x }
            } else if data {
                if let d = backing(x, 3 /* SEEK_DATA */), d < min(next, validSize) { return d }
            } else {
                let h = min(backing(x, 4 /* SEEK_HOLE */) ?? x, validSize)
                if h < next { return max(x, h) }
            }
            x = next
        }
        return nil
    }

    // MARK: Reading

    /// Fills `buf` with the file's bytes at `offset` (up to the logical size). Returns the count or -errno.
    func read(into buf: UnsafeMutableRawBufferPointer, at offset: Int64, store: SpillStore) -> Int {
        let n = Int(max(0, min(Int64(buf.count), logicalSize - offset)))
        if n == 0 { return 0 }
        let end = offset + Int64(n)
        // Backing bytes below validSize, zeros above.
        let fromBacking = Int(max(0, min(end, validSize) - offset))
        if fromBacking > 0 {
            let got = preadAll(fd, UnsafeMutableRawBufferPointer(rebasing: buf[0..<fromBacking]), offset)
            if got < 0 { return got }
            if got < fromBacking { memset(buf.baseAddress!.advanced(by: got), 0, fromBacking - got) }
        }
        if fromBacking < n { memset(buf.baseAddress!.advanced(by: fromBacking), 0, n - fromBacking) }
        // Bytes a failed fsync left clean first, then the unsynced extents over them.
        if !clean.isEmpty {
            let r = Self.copy(clean, into: buf, at: offset, end: end, store: store)
            if r != 0 { return Int(r) }
        }
        let r = Self.copy(extents, into: buf, at: offset, end: end, store: store)
        return r != 0 ? Int(r) : n
    }

    /// Copies the parts of the sorted `list` inside [offset, end) into `buf` (which starts at `offset`). 0 or -errno.
    private static func copy(_ list: [Extent], into buf: UnsafeMutableRawBufferPointer, at offset: Int64, end: Int64,
                             store: SpillStore) -> Int32 {
        var i = firstIndex(in: list, endingAfter: offset)
        while i < list.count, list[i].offset < end {
            let e = list[i]
            let a = max(e.offset, offset), b = min(e.end, end)
            let dst = UnsafeMutableRawBufferPointer(rebasing: buf[Int(a - offset)..<Int(b - offset)])
            let r = store.read(e.source, from: a - e.offset, into: dst)
            if r != 0 { return r }
            i += 1
        }
        return 0
    }

    // MARK: Syncing

    /// What an fsync writes: the current extents and sizes, up to seq `upTo`.
    struct Snapshot: Sendable {
        let fd: Int32
        let extents: [Extent]
        let validSize: Int64
        let logicalSize: Int64
        let upTo: UInt64
        /// See `FileOverlay.sizeLags`: the final size is then only as far as the written bytes reach.
        var sizeLags = false
    }

    var snapshot: Snapshot? {
        guard let last = ops.last else { return nil }
        return Snapshot(fd: fd, extents: extents, validSize: validSize, logicalSize: logicalSize, upTo: last.seq, sizeLags: sizeLags)
    }

    /// Writes a snapshot to the backing file: cut it at validSize, write every extent (runs of adjacent
    /// in-memory extents joined into one pwrite: SQLite's WAL frame header + page), set the final size. Runs outside
    /// the state lock; reads stay correct meanwhile because the map still holds every byte written here and
    /// nothing below validSize that the map does not cover is touched. Returns 0 or -errno.
    static func apply(_ s: Snapshot, spillFD: Int32) -> Int32 {
        var st = stat()
        if fstat(s.fd, &st) != 0 { return -errno }
        if Int64(st.st_size) > s.validSize, ftruncate(s.fd, off_t(s.validSize)) != 0 { return -errno }
        let store = SpillStore(fd: spillFD, budget: 0)
        var i = 0
        while i < s.extents.count {
            let e = s.extents[i]
            switch e.source {
            case .memory:
                var j = i + 1
                while j < s.extents.count, j - i < 512, s.extents[j].source.isMemory, s.extents[j].offset == s.extents[j - 1].end { j += 1 }
                let r = writeRun(s.extents[i..<j], to: s.fd)
                if r != 0 { return r }
                i = j
                continue
            case .zeros:
                let r = zeroRange(s.fd, e.offset, e.length)
                if r != 0 { return r }
            case .spill:
                var done: Int64 = 0
                var buffer = [UInt8](repeating: 0, count: Int(min(e.length, 1 << 20)))
                while done < e.length {
                    let n = Int(min(Int64(buffer.count), e.length - done))
                    let r = buffer.withUnsafeMutableBytes { b -> Int32 in
                        let part = UnsafeMutableRawBufferPointer(rebasing: b[0..<n])
                        let rr = store.read(e.source, from: done, into: part)
                        return rr != 0 ? rr : pwriteAll(s.fd, UnsafeRawBufferPointer(part), e.offset + done)
                    }
                    if r != 0 { return r }
                    done += Int64(n)
                }
            }
            i += 1
        }
        if fstat(s.fd, &st) != 0 { return -errno }
        let finalSize = s.sizeLags ? min(s.logicalSize, max(Int64(st.st_size), s.extents.last?.end ?? 0)) : s.logicalSize
        if Int64(st.st_size) != finalSize, ftruncate(s.fd, off_t(finalSize)) != 0 { return -errno }
        return 0
    }

    /// One pwrite of adjacent in-memory extents.
    private static func writeRun(_ run: ArraySlice<Extent>, to fd: Int32) -> Int32 {
        let datas = run.map { e -> Data in if case .memory(let d) = e.source { return d } else { return Data() } }
        if datas.count == 1 { return datas[0].withUnsafeBytes { pwriteAll(fd, $0, run.first!.offset) } }
        var joined = Data(capacity: datas.reduce(0) { $0 + $1.count })
        for d in datas { joined.append(d) }
        return joined.withUnsafeBytes { pwriteAll(fd, $0, run.first!.offset) }
    }

    /// Forgets what a finished fsync made durable: ops, extents and superseded pieces up to `upTo`. The
    /// backing file now holds the snapshot's bytes and size, so the valid size is that size cut by any
    /// truncate recorded since.
    mutating func settle(_ s: Snapshot, store: inout SpillStore) {
        ops.removeAll { $0.seq <= s.upTo }
        extents.removeAll { e in
            if e.seq <= s.upTo { store.release(e.source, length: e.length); return true }
            return false
        }
        superseded.removeAll { e in
            if e.seq <= s.upTo { store.release(e.source, length: e.length); return true }
            return false
        }
        validSize = s.logicalSize
        for op in ops { if case .truncate(let size) = op.kind { validSize = min(validSize, size) } }
    }

    /// Releases every byte this overlay holds (crash, fsync-fail-clean, file gone).
    mutating func releaseAll(store: inout SpillStore) {
        for e in extents { store.release(e.source, length: e.length) }
        for e in superseded { store.release(e.source, length: e.length) }
        for e in clean { store.release(e.source, length: e.length) }
        extents.removeAll()
        superseded.removeAll()
        clean.removeAll()
        ops.removeAll()
    }

    /// Moves every in-memory byte to the spill file (the file cannot be read any more, only a crash can
    /// bring it back).
    mutating func evictAll(store: inout SpillStore) {
        for i in extents.indices { extents[i].source = store.evict(extents[i].source) }
        for i in clean.indices { clean[i].source = store.evict(clean[i].source) }
    }

    // MARK: Crash replay

    /// The pieces of each pending write (and zero range), by seq.
    func piecesBySeq() -> [UInt64: [Extent]] {
        var m: [UInt64: [Extent]] = [:]
        for e in extents { m[e.seq, default: []].append(e) }
        for e in superseded { m[e.seq, default: []].append(e) }
        return m
    }

    /// Rebuilds the file on its backing descriptor as if exactly the ops `keep` selects had reached the disk,
    /// in order, on top of its durable state (an applied copy already reverted by the caller when dropped).
    /// The write `torn` (if it is this file's) is cut by `tear(offset, length)`, which returns the cut offset
    /// and the bytes the rest of its range holds; a write in `partial` keeps only those ranges of its bytes (a
    /// device-aware reorder). Best effort: errors leave what could be written.
    func replay(keep: (UInt64) -> Bool, torn: UInt64?, partial: [UInt64: [Range<Int64>]] = [:], store: SpillStore,
                tear: (Int64, Int64) -> (cut: Int64, tail: Data)) {
        let pieces = ops.isEmpty ? [:] : piecesBySeq()
        for op in ops {
            if op.seq == torn, case .write(let off, let length) = op.kind {
                let (cut, tail) = tear(off, length)
                _ = Self.writePieces(pieces[op.seq] ?? [], clippedTo: off, cut, fd: fd, store: store)
                _ = tail.withUnsafeBytes { pwriteAll(fd, $0, cut) }
            } else if let ranges = partial[op.seq], case .write = op.kind {
                // A device-aware reorder keeps some aligned units of this write and loses the others.
                for range in ranges {
                    _ = Self.writePieces(pieces[op.seq] ?? [], clippedTo: range.lowerBound, range.upperBound, fd: fd, store: store)
                }
            } else if keep(op.seq) {
                if case .write(let off, let length) = op.kind {
                    _ = Self.writePieces(pieces[op.seq] ?? [], clippedTo: off, off + length, fd: fd, store: store)
                } else {
                    _ = Self.apply(op.kind, to: fd)
                }
            }
        }
    }

    /// Writes the given pieces of one write to the backing file, clipped to [lo, hi). Returns 0 or -errno.
    static func writePieces(_ pieces: [Extent], clippedTo lo: Int64, _ hi: Int64, fd: Int32, store: SpillStore) -> Int32 {
        for p in pieces where p.offset < hi && p.end > lo {
            let e = p.clipped(lo, hi)
            var buffer = [UInt8](repeating: 0, count: Int(e.length))
            let r = buffer.withUnsafeMutableBytes { b -> Int32 in
                let rr = store.read(e.source, from: 0, into: b)
                return rr != 0 ? rr : pwriteAll(fd, UnsafeRawBufferPointer(b), e.offset)
            }
            if r != 0 { return r }
        }
        return 0
    }

    /// Applies a non-write op to a backing descriptor (crash replay). Returns 0 or -errno.
    static func apply(_ kind: PendingDataOp.Kind, to fd: Int32) -> Int32 {
        switch kind {
        case .write, .applied:
            return 0
        case .truncate(let s):
            return ftruncate(fd, off_t(s)) == 0 ? 0 : -errno
        case .zero(let o, let l):
            return zeroRange(fd, o, l)
        }
    }

    /// Zeroes a range without changing the size.
    static func zeroRange(_ fd: Int32, _ o: Int64, _ l: Int64) -> Int32 {
        if lb_fallocate(fd, LB_FALLOC_FL_ZERO_RANGE | LB_FALLOC_FL_KEEP_SIZE, o, l) == 0 { return 0 }
        var st = stat()
        if fstat(fd, &st) != 0 { return -errno }
        let hi = min(o + l, Int64(st.st_size))
        if hi <= o { return 0 }
        let zeros = Data(count: Int(hi - o))
        return zeros.withUnsafeBytes { pwriteAll(fd, $0, o) }
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
