import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// What an fsync that returned EIO leaves in a file's overlay under ext4 or xfs semantics (`FsyncFailure`; btrfs
/// reverts the file to its durable state, which is `FaultFileSystem.dropPending`).
extension FileOverlay {
    /// The file's unsynced data ops all failed to reach the disk: their current bytes stay readable as clean bytes
    /// (no later fsync or crash writes them), the metadata ops among them (truncate, zero range) are applied to the
    /// backing file as the journal would commit them, and with `persistSize` (ext4) the backing file takes the
    /// file's new size, so a failed append reads as zeros after a crash. An already-applied copy is reverted on the
    /// backing file and kept as clean bytes. Returns the seqs of the failed ops. Called under the state lock.
    mutating func failedSync(persistSize: Bool, store: inout SpillStore) -> [UInt64] {
        let seqs = ops.map(\.seq)
        var failed: [Extent] = []
        if let first = ops.first, case .applied(let offset, _, _, let length) = first.kind {
            var bytes = Data(count: Int(length))
            let got = bytes.withUnsafeMutableBytes { preadAll(fd, $0, offset) }
            if got > 0, case .success(let source) = bytes.prefix(got).withUnsafeBytes({ store.store($0) }) {
                failed.append(Extent(offset: offset, length: Int64(got), seq: first.seq, source: source))
            }
            _ = Self.revert(first.kind, on: fd)
        }
        for op in ops {
            switch op.kind {
            case .truncate, .zero: _ = Self.apply(op.kind, to: fd)
            case .write, .applied: break
            }
        }
        var st = stat()
        if persistSize {
            _ = ftruncate(fd, off_t(logicalSize))
        } else if fstat(fd, &st) == 0, Int64(st.st_size) < logicalSize {
            sizeLags = true
        }
        for e in extents {
            if case .zeros = e.source { continue }   // the zero range is on the backing file now
            failed.append(e)
        }
        for e in superseded { store.release(e.source, length: e.length) }
        ops.removeAll()
        extents.removeAll()
        superseded.removeAll()
        for e in failed {
            dropClean(e.offset, e.end, store: &store)
            clean.insert(e, at: Self.firstIndex(in: clean, endingAfter: e.offset))
        }
        validSize = logicalSize
        return seqs
    }

    /// The page size of the page cache whose clean pages `clean` stands for.
    static let pageSize: Int64 = 4096

    /// Moves the clean bytes in the pages that [lo, hi) touches, outside [lo, hi) itself, back among the unsynced
    /// extents as part of write `seq` (the kernel writes back whole dirty pages); the clean bytes inside [lo, hi)
    /// are left for the write to replace. Returns the moved pieces.
    mutating func redirtyCleanPages(around lo: Int64, _ hi: Int64, seq: UInt64, store: inout SpillStore) -> [Extent] {
        guard !clean.isEmpty else { return [] }
        let pageLo = lo / Self.pageSize * Self.pageSize
        let pageHi = (hi + Self.pageSize - 1) / Self.pageSize * Self.pageSize
        var moved: [Extent] = []
        for (a, b) in [(pageLo, lo), (hi, pageHi)] where a < b {
            for var piece in takeClean(a, b) {
                piece.seq = seq
                cover(piece.offset, piece.end, with: piece, store: &store)
                moved.append(piece)
            }
        }
        return moved
    }

    /// Forgets the clean bytes in [lo, hi): a later write, truncate or zero range replaces them, or a failed
    /// fsync's newer bytes do.
    mutating func dropClean(_ lo: Int64, _ hi: Int64, store: inout SpillStore) {
        for e in takeClean(lo, hi) { store.release(e.source, length: e.length) }
    }

    /// Removes the clean bytes in [lo, hi) and returns them, still held (a split memory piece becomes copies of its
    /// parts, which sum to the original, so the RAM count stays right; spill pieces keep their ranges).
    mutating func takeClean(_ lo: Int64, _ hi: Int64) -> [Extent] {
        guard !clean.isEmpty, hi > lo else { return [] }
        var kept: [Extent] = []
        var taken: [Extent] = []
        kept.reserveCapacity(clean.count + 1)
        for e in clean {
            if e.end <= lo || e.offset >= hi { kept.append(e); continue }
            if e.offset < lo { kept.append(e.clipped(e.offset, lo)) }
            taken.append(e.offset >= lo && e.end <= hi ? e : e.clipped(max(lo, e.offset), min(hi, e.end)))
            if e.end > hi { kept.append(e.clipped(hi, e.end)) }
        }
        clean = kept
        return taken
    }
}
