import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// Past `--memory-budget`, unsynced bytes go to the spill file instead of RAM; the crash model is as exact
    /// as in RAM. (The 4 GB figure lives in scripts/bench-faultfs-memory.sh, not in a timed test.)
    @Suite struct MemoryBudgetTests {
        static let chunk = 1 << 20

        /// Equality without printing megabytes on failure.
        static func same(_ a: [UInt8]?, _ b: [UInt8]) -> Bool { a == b }

        /// Pattern bytes for pass `p` of chunk `i`.
        static func pattern(_ i: Int, _ p: Int) -> [UInt8] {
            var out = [UInt8](repeating: 0, count: chunk)
            let shift = UInt8(truncatingIfNeeded: i &* 7 &+ p &* 13)
            out.withUnsafeMutableBytes { b in
                for j in stride(from: 0, to: chunk, by: 8) {
                    b.storeBytes(of: UInt64(truncatingIfNeeded: j &* 31) &* 0x0101_0101_0101_0101 &+ UInt64(shift), toByteOffset: j, as: UInt64.self)
                }
            }
            return out
        }

        @Test func writesPastTheBudgetSpillAndACrashRestoresTheBackingFileExactly() throws {
            try withMount(arguments: ["--memory-budget", "2M"]) { m in
                // A durable 4 MiB file.
                let original = (0..<4).flatMap { Self.pattern($0, 0) }
                #expect(Posix.write(m.path("big"), original, fsync: true) == .ok(original.count))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                // 24 MiB of unsynced writes: two passes over 12 MiB (the second overwrites the first).
                let fd = open(m.path("big"), O_WRONLY)
                #expect(fd >= 0)
                var firstPassOps = 0
                for p in 1...2 {
                    if p == 2 { firstPassOps = try m.fs.status().files.first?.pendingOps ?? 0 }
                    for i in 0..<12 {
                        let b = Self.pattern(i, p)
                        #expect(b.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(i * Self.chunk)) } == Self.chunk)
                    }
                }
                close(fd)
                // The file reads as written, with at most the budget in RAM.
                #expect(Self.same(Posix.contents(m.path("big")), (0..<12).flatMap { Self.pattern($0, 2) }))
                let status = try m.fs.status()
                #expect((status.peakUnsyncedRAMBytes ?? .max) <= 2 << 20)
                #expect((status.spillBytes ?? 0) >= 20 << 20)
                #expect(Self.same(Posix.contents(m.backingPath("big")), original))

                // keep-prefix (the first pass's ops): the first pass survives in full, not one byte of the second
                // (the kernel splits each 1 MiB pwrite into FUSE writes of its max_write).
                #expect(firstPassOps >= 12)
                try m.fs.crash(.keepPrefix(firstPassOps))
                #expect(Self.same(Posix.contents(m.path("big")), (0..<12).flatMap { Self.pattern($0, 1) }))
                let after = try m.fs.status()
                #expect(after.unsyncedRAMBytes == 0 && after.spillBytes == 0)

                // Again without fsync, then keep-none: exactly the durable bytes.
                let fd2 = open(m.path("big"), O_WRONLY | O_TRUNC)
                for i in 0..<8 {
                    let b = Self.pattern(i, 3)
                    _ = b.withUnsafeBytes { pwrite(fd2, $0.baseAddress, $0.count, off_t(i * Self.chunk)) }
                }
                close(fd2)
                try m.fs.crash(.keepNone)
                #expect(Self.same(Posix.contents(m.backingPath("big")), (0..<12).flatMap { Self.pattern($0, 1) }))
            }
        }

        @Test func memoryBudgetArgumentIsValidated() {
            #expect(FaultFSCommandLine.parseByteCount("64M") == 64 << 20)
            #expect(FaultFSCommandLine.parseByteCount("4096") == 4096)
            #expect(FaultFSCommandLine.parseByteCount("1g") == 1 << 30)
            for bad in ["", "M", "-1", "12Q", "99999999999G"] { #expect(FaultFSCommandLine.parseByteCount(bad) == nil) }
            guard case .failure = FaultFSCommandLine.parseMount(["/b", "/m", "--memory-budget", "lots"]) else {
                Issue.record("accepted a bad budget")
                return
            }
        }
    }
}
