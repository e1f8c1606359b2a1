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
        let device = faults.device.withLock { $0 }
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
                /// With a device profile, reorder keeps aligned units of writes: the surviving ranges per write.
                var partial: [UInt64: [Range<Int64>]] = [:]
                switch mode {
                case .keepNone:
                    break
                case .keepPrefix(let n):
                    kept = Set(all.prefix(n).map(\.seq))
                case .reorder:
                    if let device {
                        var writes: [PendingWriteExtent] = []
                        for ov in s.overlays.values {
                            for op in ov.ops { if case .write(let off, let length) = op.kind { writes.append(PendingWriteExtent(seq: op.seq, offset: off, length: length)) } }
                        }
                        partial = DeviceTear.reorderSurvivors(writes, device: device) { rng.next() }
                        for p in all where !p.isWrite && rng.next() & 1 == 1 { kept.insert(p.seq) }
                        for (seq, ranges) in partial where !ranges.isEmpty { kept.insert(seq) }
                    } else {
                        for p in all where rng.next() & 1 == 1 { kept.insert(p.seq) }
                    }
                    // Directory entries are a journal: the surviving ones are a prefix (docs/faultfs.md, "Crash
                    // model"), so every entry change after the first one lost is lost too (a rename never survives
                    // without the unlink before it). The same draws as before: data ops keep their outcomes.
                    if let firstLost = s.entries.first(where: { !kept.contains($0.seq) }) {
                        for op in s.entries where op.seq > firstLost.seq { kept.remove(op.seq) }
                    }
                case .torn:
                    if let last = all.last(where: \.isWrite) {
                        tornSeq = last.seq
                        kept = Set(all.filter { $0.seq < last.seq }.map(\.seq))
                    } else {
                        kept = Set(all.map(\.seq))
                    }
                }

                // Data: replay each file's surviving ops, in order, onto the backing file (which holds its
                // durable state, bar an applied copy), then make that durable. A write's bytes are the
                // pieces tagged with its seq (see FileOverlay).
                for (_, var ov) in s.overlays {
                    invalidate.append(ov.pathHint)
                    if let first = ov.ops.first, case .applied = first.kind, !kept.contains(first.seq) {
                        _ = FileOverlay.revert(first.kind, on: ov.fd)
                    }
                    // The torn write: cut at a seeded boundary of the device's tear unit (a 512-byte sector
                    // without a profile), the lost tail zeros or garbage.
                    let profile = device ?? .default
                    var torn: (offset: Int64, length: Int64, cut: Int64)?
                    ov.replay(keep: { kept.contains($0) }, torn: tornSeq, partial: partial, store: s.store) { off, length in
                        let cut = DeviceTear.tornCut(offset: off, length: length, device: profile) { rng.next() }
                        report.tornCut = cut
                        torn = (off, length, cut)
                        var tail = Data(count: Int(off + length - cut))
                        if case .torn(.garbage) = mode {
                            for i in tail.indices { tail[i] = UInt8(truncatingIfNeeded: rng.next()) }
                        }
                        return (cut, tail)
                    }
                    if let t = torn, case .torn(let fill) = mode {
                        Self.damageOutside(t.offset, t.length, cut: t.cut, device: profile, fill: fill, fd: ov.fd, rng: &rng)
                    }
                    if let t = tornSeq, ov.ops.contains(where: { $0.seq == t }) { report.tornSeq = t }
                    if !ov.ops.isEmpty { _ = hostFlush(ov.fd) }
                    ov.releaseAll(store: &s.store)
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
                s.trashByIno.removeAll()
                _ = hostFlush(backing.dirFD)

                report.kept = all.map(\.seq).filter { kept.contains($0) }
                report.dropped = all.map(\.seq).filter { !kept.contains($0) && $0 != tornSeq }
                epoch.wrappingAdd(1, ordering: .relaxed)
                return true
            }
            if done { break }
            usleep(100)
        }
        report.staleHandles = staleHandleCount
        invalidateAfterCrash(invalidate)
        logOp(.crash, nil, result: 0) { r in
            r.detail = mode.name
            r.synced = report.kept
            r.dropped = report.dropped
            if let t = report.tornSeq { r.offset = report.tornCut; r.detail = "torn seq \(t)" }
        }
        log?.flush()
        return report
    }

    /// Without powersafe overwrite, a torn write also destroys the rest of the sectors it was rewriting: the bytes
    /// of those sectors outside the write (up to the file's end) take the fill too.
    static func damageOutside(_ offset: Int64, _ length: Int64, cut: Int64, device: DeviceProfile, fill: TornFill, fd: Int32,
                              rng: inout SeededRandom) {
        let damage = DeviceTear.damage(offset: offset, length: length, cut: cut, device: device)
        var st = stat()
        guard fstat(fd, &st) == 0 else { return }
        let size = Int64(st.st_size)
        for (low, high) in [(damage.lowerBound, min(offset, size)), (offset + length, min(damage.upperBound, size))] where low < high {
            var bytes = Data(count: Int(high - low))
            if fill == .garbage { for i in 0..<bytes.count { bytes[i] = UInt8(truncatingIfNeeded: rng.next()) } }
            _ = bytes.withUnsafeBytes { pwriteAll(fd, $0, low) }
        }
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
            s.trashByIno.removeAll()
            return e
        }
        for op in entries { op.finalize(on: backing) }
        for op in entries where op.kind == .unlink || op.kind == .rename { dropIdleOverlay(ino: op.ino) }
        synced += entries.map(\.seq)
        _ = hostFlush(backing.dirFD)
        logOp(.syncAll, nil, result: 0) { $0.synced = synced }
        log?.flush()
        return synced.count
    }

    func status() -> StatusReport {
        let (files, entries, crashes, store): ([FileStatus], [PendingEntry], Int, SpillStore) = state.withLock { s in
            let files = s.overlays.filter { !$0.value.ops.isEmpty }.map {
                FileStatus(path: $0.value.pathHint, ino: $0.key, pendingOps: $0.value.ops.count,
                           unsyncedBytes: $0.value.unsyncedBytes, logicalSize: $0.value.logicalSize)
            }.sorted { $0.path < $1.path }
            let entries = s.entries.map { PendingEntry(seq: $0.seq, op: $0.kind.rawValue, path: $0.path, path2: $0.path2) }
            return (files, entries, s.crashes, s.store)
        }
        var report = StatusReport(files: files, pendingEntries: entries, openHandles: openHandleCount, crashes: crashes,
                                  rules: faults.list().count)
        report.unsyncedRAMBytes = store.ramBytes
        report.peakUnsyncedRAMBytes = store.peakRAM
        report.spillBytes = store.liveSpillBytes
        report.requests = requests.load(ordering: .relaxed)
        if lowLevelSession.load(ordering: .relaxed) != 0 {
            let counts = nodes.counts
            report.nodes = counts.live
            report.peakNodes = counts.peak
        }
        return report
    }
}
