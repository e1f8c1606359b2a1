import CFuse3
import Foundation
#if canImport(Glibc)
import Glibc
import SeededRandomness
#endif

/// The crash model's verbs: crash, sync-all, status.
extension FaultFileSystem {
    /// Simulates a power loss: only durable state plus the surviving pending ops (chosen by `mode`, the seed
    /// and the crash number) stay in the backing directory. Handles opened before the crash fail with EIO
    /// afterwards; new opens see the surviving state.
    func crash(_ mode: CrashMode) -> CrashReport {
        var report = CrashReport(mode: mode.name, kept: [], dropped: [], staleHandles: 0)
        var invalidate: [String] = []
        while true {
            let done: Bool = state.withLock { s in
                if !s.syncing.isEmpty { return false }
                s.crashes += 1
                var rng = SeededRandom(seed: seed, label: "crash-\(s.crashes)")

                // Every pending op, data and entry, in seq order.
                var all: [(seq: UInt64, isWrite: Bool)] = s.entries.map { ($0.seq, false) }
                for ov in s.overlays.values { all += ov.ops.map { ($0.seq, $0.isWrite) } }
                all.sort { $0.seq < $1.seq }

                var kept = Set<UInt64>()
                var tornSeq: UInt64?
                switch mode {
                case .keepNone:
                    break
                case .keepPrefix(let n):
                    kept = Set(all.prefix(n).map(\.seq))
                case .reorder:
                    for p in all where rng.next() & 1 == 1 { kept.insert(p.seq) }
                case .torn:
                    if let last = all.last(where: \.isWrite) {
                        tornSeq = last.seq
                        kept = Set(all.filter { $0.seq < last.seq }.map(\.seq))
                    } else {
                        kept = Set(all.map(\.seq))
                    }
                }

                // Data: put each file's surviving ops into the backing file, then make that durable.
                for (_, ov) in s.overlays {
                    invalidate.append(ov.pathHint)
                    if let first = ov.ops.first, case .applied = first.kind, !kept.contains(first.seq) {
                        _ = FileOverlay.revert(first.kind, on: ov.fd)
                    }
                    for op in ov.ops {
                        if op.seq == tornSeq, case .write(let off, let data) = op.kind, case .torn(let fill) = mode {
                            let cut = Self.tornCut(offset: off, length: Int64(data.count), rng: &rng)
                            report.tornSeq = op.seq
                            report.tornCut = cut
                            var bytes = data
                            let keep = Int(cut - off)
                            if fill == .zeros {
                                bytes.resetBytes(in: keep..<bytes.count)
                            } else {
                                for i in keep..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) }
                            }
                            _ = FileOverlay.apply(.write(offset: off, data: bytes), to: ov.fd)
                        } else if kept.contains(op.seq) {
                            if case .applied(let off, _, _, let new) = op.kind {
                                _ = FileOverlay.apply(.write(offset: off, data: new), to: ov.fd)
                            } else {
                                _ = FileOverlay.apply(op.kind, to: ov.fd)
                            }
                        }
                    }
                    if !ov.ops.isEmpty { _ = Glibc.fsync(ov.fd) }
                    close(ov.fd)
                }
                s.overlays.removeAll()

                // Directory entries: undo the lost changes newest first, settle the surviving ones.
                for op in s.entries.reversed() {
                    invalidate.append(op.path)
                    if let p2 = op.path2 { invalidate.append(p2) }
                    if kept.contains(op.seq) { op.finalize(on: backing) } else { op.undo(on: backing) }
                }
                s.entries.removeAll()
                _ = Glibc.fsync(backing.dirFD)

                report.kept = all.map(\.seq).filter { kept.contains($0) }
                report.dropped = all.map(\.seq).filter { !kept.contains($0) && $0 != tornSeq }
                epoch.wrappingAdd(1, ordering: .relaxed)
                return true
            }
            if done { break }
            usleep(100)
        }
        report.staleHandles = staleHandleCount
        invalidateKernelCaches(invalidate)
        logOp("crash", nil, result: 0) { r in
            r.detail = mode.name
            r.synced = report.kept
            r.dropped = report.dropped
            if let t = report.tornSeq { r.offset = report.tornCut; r.detail = "torn seq \(t)" }
        }
        log?.flush()
        return report
    }

    /// The cut point of a torn write: a 512-byte sector boundary strictly inside the write, chosen by the
    /// seed; a write inside one sector is cut at its start (nothing of it survives).
    static func tornCut(offset: Int64, length: Int64, rng: inout SeededRandom) -> Int64 {
        let first = (offset / 512 + 1) * 512
        let end = offset + length
        guard first < end else { return offset }
        let count = (end - 1 - first) / 512 + 1
        return first + Int64(rng.next() % UInt64(count)) * 512
    }

    /// Drops the kernel's cached pages and attributes of the given paths (best effort, outside our locks).
    func invalidateKernelCaches(_ paths: [String]) {
        let bits = fuseHandle.load(ordering: .relaxed)
        guard bits != 0, let f = OpaquePointer(bitPattern: bits) else { return }
        for p in Set(paths) where !p.isEmpty { _ = fuse_invalidate_path(f, p) }
    }

    /// Makes everything durable: all files' unsynced data and all pending entry changes.
    func syncAll() -> Int {
        let inos: [(UInt64, Int32)] = state.withLock { s in s.overlays.map { ($0.key, $0.value.fd) } }
        var synced: [UInt64] = []
        for (ino, fd) in inos {
            synced += syncFile(ino: ino, fd: fd, datasync: false).1
            dropIdleOverlay(ino: ino)
        }
        let entries: [NamespaceOp] = state.withLock { s in
            let e = s.entries
            s.entries.removeAll()
            return e
        }
        for op in entries { op.finalize(on: backing) }
        synced += entries.map(\.seq)
        _ = Glibc.fsync(backing.dirFD)
        logOp("sync-all", nil, result: 0) { $0.synced = synced }
        log?.flush()
        return synced.count
    }

    func status() -> StatusReport {
        let (files, entries, crashes): ([FileStatus], [PendingEntry], Int) = state.withLock { s in
            let files = s.overlays.filter { !$0.value.ops.isEmpty }.map {
                FileStatus(path: $0.value.pathHint, ino: $0.key, pendingOps: $0.value.ops.count,
                           unsyncedBytes: $0.value.unsyncedBytes, logicalSize: $0.value.logicalSize)
            }.sorted { $0.path < $1.path }
            let entries = s.entries.map { PendingEntry(seq: $0.seq, op: $0.kind.rawValue, path: $0.path, path2: $0.path2) }
            return (files, entries, s.crashes)
        }
        return StatusReport(files: files, pendingEntries: entries, openHandles: openHandleCount, crashes: crashes,
                            rules: faults.list().count)
    }
}
