import Foundation
import PropertyBased
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

/// The ext4 and xfs fsync-failure semantics of `FileOverlay` (`failedSync`, re-dirtied pages, xfs's lagging size)
/// against a byte-level model of a page cache over a disk: what reads return is `memory`, what the backing file
/// holds is `disk` (the durable state, what a crash keeps), and each byte of `memory` is dirty (a successful fsync
/// writes it), failed-clean (no fsync writes it until a write into its page dirties it again) or settled.
@Suite struct FailedSyncOverlayTests {
    struct Model {
        var memory: [UInt8]
        var disk: [UInt8]
        var dirty = Set<Int>()
        var clean = Set<Int>()
        var truncates: [Int] = []
        var lags = false
        let ext4: Bool

        static func resize(_ a: inout [UInt8], _ n: Int) {
            if a.count > n { a.removeLast(a.count - n) } else { a += [UInt8](repeating: 0, count: n - a.count) }
        }

        mutating func write(_ offset: Int, _ data: [UInt8]) {
            let end = offset + data.count
            if memory.count < end { Self.resize(&memory, end) }
            memory.replaceSubrange(offset..<end, with: data)
            let pageLo = offset / 4096 * 4096, pageHi = (end + 4095) / 4096 * 4096
            let redirtied = clean.filter { $0 >= pageLo && $0 < pageHi }
            clean.subtract(redirtied)
            dirty.formUnion(redirtied)
            for i in offset..<end { dirty.insert(i); clean.remove(i) }
        }

        mutating func truncate(_ size: Int) {
            Self.resize(&memory, size)
            dirty = dirty.filter { $0 < size }
            clean = clean.filter { $0 < size }
            truncates.append(size)
            lags = false
        }

        mutating func fsyncSucceeds() {
            if dirty.isEmpty && truncates.isEmpty { return }
            if let cut = truncates.min(), disk.count > cut { Self.resize(&disk, cut) }
            for i in dirty.sorted() {
                if i >= disk.count { Self.resize(&disk, i + 1) }
                disk[i] = memory[i]
            }
            let size = lags ? min(memory.count, max(disk.count, (dirty.max() ?? -1) + 1)) : memory.count
            Self.resize(&disk, size)
            dirty.removeAll()
            truncates.removeAll()
        }

        mutating func fsyncFails() {
            for size in truncates { Self.resize(&disk, size) }
            if ext4 { Self.resize(&disk, memory.count) } else if disk.count < memory.count { lags = true }
            clean.formUnion(dirty)
            dirty.removeAll()
            truncates.removeAll()
        }
    }

    @Test func failedSyncsMatchThePageCacheModelInReadsTheBackingFileAndMemory() async throws {
        let opGen = zip(Gen.int(in: 0...4), Gen.int(in: 0...12_000), Gen.int(in: 1...300), Gen.int(in: 1...255))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("failed-sync-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let counter = Counter()
        await propertyCheck(count: 200, input: Gen.int(in: 0...9_000), opGen.array(of: 0...30), Gen.int(in: 0...3_000), Gen.bool) {
            base, raw, budget, ext4 in
            let path = dir.appendingPathComponent("f\(counter.next())").path
            let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            #expect(fd >= 0)
            defer { close(fd); unlink(path) }
            let initial = [UInt8](repeating: 7, count: base)
            _ = initial.withUnsafeBytes { pwriteAll(fd, $0, 0) }
            guard var store = try? SpillStore.open(directory: dir.path, budget: Int64(budget)) else {
                Issue.record("no spill file")
                return
            }
            defer { close(store.fd) }
            var ov = FileOverlay(fd: fd, size: Int64(base), pathHint: path)
            var model = Model(memory: initial, disk: initial, ext4: ext4)
            for (i, (kind, off, len, byte)) in raw.enumerated() {
                let seq = UInt64(i + 1)
                switch kind {
                case 0, 1:
                    let d = (0..<len).map { UInt8(truncatingIfNeeded: byte + $0) }
                    #expect(d.withUnsafeBytes { ov.write($0, at: Int64(off), seq: seq, store: &store) } == 0)
                    model.write(off, d)
                case 2:
                    ov.truncate(to: Int64(off), seq: seq, store: &store)
                    model.truncate(off)
                case 3:
                    if let snap = ov.snapshot {
                        #expect(FileOverlay.apply(snap, spillFD: store.fd) == 0)
                        ov.settle(snap, store: &store)
                    }
                    model.fsyncSucceeds()
                default:
                    _ = ov.failedSync(persistSize: ext4, store: &store)
                    model.fsyncFails()
                }
                // Reads show the page cache, the backing file holds the disk, and RAM counts what is held.
                #expect(ov.logicalSize == Int64(model.memory.count), "after op \(i) (\(kind))")
                var all = [UInt8](repeating: 0xEE, count: model.memory.count)
                let n = all.withUnsafeMutableBytes { ov.read(into: $0, at: 0, store: store) }
                #expect(n == model.memory.count && all == model.memory, "reads after op \(i) (\(kind))")
                #expect(FileOverlayTests.contents(fd) == model.disk, "backing file after op \(i) (\(kind))")
                #expect(zip(ov.clean, ov.clean.dropFirst()).allSatisfy { $0.end <= $1.offset })
                let ram = (ov.extents + ov.superseded + ov.clean).reduce(Int64(0)) { $0 + ($1.source.isMemory ? $1.length : 0) }
                #expect(store.ramBytes == ram)
            }
            // A crash keeping nothing pending leaves the disk; nothing stays held.
            ov.replay(keep: { _ in false }, torn: nil, store: store) { off, _ in (off, Data()) }
            #expect(FileOverlayTests.contents(fd) == model.disk)
            ov.releaseAll(store: &store)
            #expect(store.ramBytes == 0 && store.liveSpillBytes == 0)
        }
    }
}
