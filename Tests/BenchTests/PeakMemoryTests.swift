import Bench
import Foundation
import Testing

/// Peak RSS as the bench reads it, from real child processes.
@Suite struct PeakMemoryTests {
    static let hundredMB: Int64 = 100 * 1024 * 1024

    /// A child that allocates and touches 100 MiB: wait4's ru_maxrss must read at least that.
    @Test func waitReadsAChildThatTouches100MB() throws {
        let python = try #require(ProcessSpawn.which("python3"))
        let result = try ProcessSpawn.run(python, ["-c", "b = bytearray(100*1024*1024)\nfor i in range(0, len(b), 4096): b[i] = 1\nprint(sum(b[::4096]))"])
        #expect(result.succeeded)
        #expect(result.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines) == String(100 * 1024 * 1024 / 4096))
        #expect(result.peakRSSBytes >= Self.hundredMB)
    }

    /// A child that allocates little reads no more than the floor posix_spawn gives it (this process's RSS at
    /// spawn, see `ProcessSpawn`) plus the interpreter's own few MB: far less than the 100 MB one.
    @Test func waitReadsLittleForAChildThatAllocatesLittle() throws {
        let python = try #require(ProcessSpawn.which("python3"))
        let result = try ProcessSpawn.run(python, ["-c", "b = bytearray(1024*1024)\nprint(len(b))"])
        #expect(result.succeeded)
        let floor = try #require(result.spawnFloorBytes)
        #expect(result.peakRSSBytes < max(floor, 16_000_000) + 24_000_000)
        #expect(result.peakRSSBytes > 0)
    }

    /// The bench's own child reports its VmHWM, which carries no floor: 100 MB reads >= 100 MB, 1 MB far less.
    @Test func benchChildReportsItsOwnHighWater() throws {
        let lifeboat = try #require(BenchTestSupport.lifeboatExecutable(), "the lifeboat binary is built next to the test bundle")
        let big = try ProcessSpawn.run(lifeboat, ["bench-child", "--allocate", "100MiB"])
        let small = try ProcessSpawn.run(lifeboat, ["bench-child", "--allocate", "1MiB"])
        #expect(big.succeeded && small.succeeded)
        let bigReport = try #require(ChildReport.parse(big.standardOutput))
        let smallReport = try #require(ChildReport.parse(small.standardOutput))
        #expect(big.peakRSSBytes >= Self.hundredMB)
        #expect(try #require(bigReport.highWaterRSSBytes) >= Self.hundredMB)
        let smallPeak = try #require(smallReport.highWaterRSSBytes)
        #expect(smallPeak > 0)
        #expect(smallPeak < 64_000_000)
        #expect(bigReport.io != nil)
    }
}

/// Locating the `lifeboat` binary SwiftPM builds next to the test bundle.
enum BenchTestSupport {
    static func lifeboatExecutable() -> String? {
        var candidates: [URL] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append(URL(fileURLWithPath: exe).deletingLastPathComponent().appendingPathComponent("lifeboat"))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("lifeboat"))
        return candidates.map(\.path).first { FileManager.default.isExecutableFile(atPath: $0) }
    }
}
