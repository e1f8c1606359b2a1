import Foundation
import PropertyBased
import Testing
@testable import FaultFS
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// The extent map against the simplest model of a file: an array of bytes that every op is applied to in
/// order. Reads after every op, fsync (the backing file then equals the model) and crash replay of any
/// subset of the pending ops (keep-prefix, reorder and torn are subsets, torn with a cut write) must agree.
@Suite struct FileOverlayTests {
    enum Op { case write(Int64, [UInt8]), truncate(Int64), zero(Int64, Int64) }

    static func apply(_ op: Op, to model: inout [UInt8]) {
        switch op {
        case .write(let o, let d):
            guard !d.isEmpty else { return }
            if model.count < Int(o) + d.count { model += [UInt8](repeating: 0, count: Int(o) + d.count - model.count) }
            model.replaceSubrange(Int(o)..<Int(o) + d.count, with: d)
        case .truncate(let s):
            if Int(s) < model.count { model.removeLast(model.count - Int(s)) } else { model += [UInt8](repeating: 0, count: Int(s) - model.count) }
        case .zero(let o, let l):
            if Int(o) < model.count { for j in Int(o)..<min(model.count, Int(o + l)) { model[j] = 0 } }
        }
    }

    static func contents(_ fd: Int32) -> [UInt8] {
        var st = stat()
        fstat(fd, &st)
        var out = [UInt8](repeating: 0, count: Int(st.st_size))
        _ = out.withUnsafeMutableBytes { preadAll(fd, $0, 0) }
        return out
    }

    @Test func extentMapMatchesSequentialModelThroughReadsSyncsAndCrashes() async throws {
        let opGen = zip(Gen.int(in: 0...5), Gen.int(in: 0...400), Gen.int(in: 0...150), Gen.int(in: 1...255))
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("overlay-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let counter = Counter()
        await propertyCheck(count: 250, input: Gen.int(in: 0...300), opGen.array(of: 0...24), Gen.int(in: 0...700),
                            Gen.uint64(), Gen.bool) { base, raw, budget, keepBits, tornLast in
            let path = dir.appendingPathComponent("f\(counter.next())").path
            let fd = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
            #expect(fd >= 0)
            defer { close(fd); unlink(path) }
            var model = [UInt8](repeating: 7, count: base)
            _ = model.withUnsafeBytes { pwriteAll(fd, $0, 0) }
            guard var store = try? SpillStore.open(directory: dir.path, budget: Int64(budget)) else {
                Issue.record("no spill file")
                return
            }
            defer { close(store.fd) }
            var ov = FileOverlay(fd: fd, size: Int64(base), pathHint: path)
            var durable = model
            var pending: [(seq: UInt64, op: Op)] = []
            for (i, (kind, off, len, byte)) in raw.enumerated() {
                let seq = UInt64(i + 1)
                var op: Op?
                switch kind {
                case 0, 1:
                    let d = (0..<len).map { UInt8(truncatingIfNeeded: byte + $0) }
                    #expect(d.withUnsafeBytes { ov.write($0, at: Int64(off), seq: seq, store: &store) } == 0)
                    op = .write(Int64(off), d)
                case 2:
                    ov.truncate(to: Int64(off), seq: seq, store: &store)
                    op = .truncate(Int64(off))
                case 3:
                    ov.zero(offset: Int64(off), length: Int64(len), seq: seq, store: &store)
                    op = .zero(Int64(off), Int64(len))
                case 4:
                    if let snap = ov.snapshot {
                        #expect(FileOverlay.apply(snap, spillFD: store.fd) == 0)
                        ov.settle(snap, store: &store)
                    }
                    durable = model
                    pending.removeAll()
                    #expect(Self.contents(fd) == model)
                    #expect(ov.extents.isEmpty && ov.superseded.isEmpty && ov.ops.isEmpty)
                default:
                    // A read at an arbitrary offset and length.
                    var buf = [UInt8](repeating: 0xEE, count: len)
                    let n = buf.withUnsafeMutableBytes { ov.read(into: $0, at: Int64(off), store: store) }
                    let want = off < model.count ? Array(model[off..<min(model.count, off + len)]) : []
                    #expect(Array(buf.prefix(max(0, n))) == want)
                }
                if let op {
                    Self.apply(op, to: &model)
                    pending.append((seq, op))
                }
                // The whole file reads as the model; the map stays sorted and disjoint; RAM within budget.
                #expect(ov.logicalSize == Int64(model.count))
                var all = [UInt8](repeating: 0xEE, count: model.count)
                let n = all.withUnsafeMutableBytes { ov.read(into: $0, at: 0, store: store) }
                #expect(n == model.count && all == model)
                #expect(zip(ov.extents, ov.extents.dropFirst()).allSatisfy { $0.end <= $1.offset })
                let ram = ov.extents.reduce(Int64(0)) { $0 + ($1.source.isMemory ? $1.length : 0) }
                    + ov.superseded.reduce(Int64(0)) { $0 + ($1.source.isMemory ? $1.length : 0) }
                #expect(store.ramBytes == ram && ram <= Int64(budget))
            }
            // Crash: a seeded subset of the pending ops survives; torn cuts the last write in half.
            let lastWrite = pending.last { if case .write = $0.op { return true } else { return false } }
            let torn = tornLast ? lastWrite?.seq : nil
            func kept(_ seq: UInt64) -> Bool {
                if let torn { return seq < torn }
                return keepBits & (1 << (seq % 64)) != 0
            }
            var expected = durable
            for (seq, op) in pending {
                if seq == torn, case .write(let o, let d) = op {
                    Self.apply(.write(o, Array(d.prefix(d.count / 2)) + [UInt8](repeating: 0, count: d.count - d.count / 2)), to: &expected)
                } else if kept(seq) {
                    Self.apply(op, to: &expected)
                }
            }
            ov.replay(keep: kept, torn: torn, store: store) { off, length in
                (off + length / 2, Data(count: Int(length - length / 2)))
            }
            #expect(Self.contents(fd) == expected)
            ov.releaseAll(store: &store)
            #expect(store.ramBytes == 0 && store.liveSpillBytes == 0)
        }
    }

    /// A thousand overlapping writes to the same 4 KiB hold one extent's worth of RAM, not a thousand.
    @Test func overwritesDoNotGrowMemory() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("overlay-mem-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fd = open(dir.appendingPathComponent("f").path, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
        defer { close(fd) }
        var store = try SpillStore.open(directory: dir.path, budget: 1 << 30)
        defer { close(store.fd) }
        var ov = FileOverlay(fd: fd, size: 0, pathHint: "f")
        let page = [UInt8](repeating: 1, count: 4096)
        for i in 0..<1000 {
            _ = page.withUnsafeBytes { ov.write($0, at: Int64(i % 7), seq: UInt64(i + 1), store: &store) }
        }
        #expect(store.ramBytes == 4102)
        #expect(ov.extents.count <= 8) // bounded by the distinct offsets (7), not by the 1000 writes
        #expect(ov.ops.count == 1000)
    }
}

/// A thread-safe counter for unique file names inside property checks.
final class Counter: Sendable {
    private let value = Mutex(0)
    func next() -> Int { value.withLock { $0 += 1; return $0 } }
}
