import Bench
import Foundation
import LifeboatTestSupport
import Testing

/// The XFS reflink volume, for real: loop device, mkfs.xfs, mount, and the cleanup that must always happen.
/// Needs root and mkfs.xfs (scripts/setup.sh installs xfsprogs).
@Suite(.enabled(if: getuid() == 0 && ProcessSpawn.which("mkfs.xfs") != nil, "needs root and mkfs.xfs"))
struct ReflinkVolumeTests {
    static func mounted(_ path: String) -> Bool {
        ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").contains(" \(path) ")
    }

    static func attached(_ image: String) -> Bool {
        ((try? ProcessSpawn.run(try #require(ProcessSpawn.which("losetup")), ["-j", image]).standardOutput) ?? "").contains(image)
    }

    /// A bench on the XFS volume clones with replace, and leaves no mount, loop device or image behind.
    @Test func replaceClonesOnTheVolumeAndTheVolumeIsRemoved() throws {
        let lifeboat = try #require(BenchTestSupport.lifeboatExecutable())
        let scratch = try Scratch("bench-xfs")
        let plan = BenchPlan(sizes: [2_000_000], strategies: ["replace"], blobFraction: 0.2, rounds: 1, volume: .xfsReflink,
                             cache: scratch.path("cache"), scratch: scratch.path("work"), childExecutable: lifeboat)
        let before = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix(ReflinkVolume.prefix) }
        let report = try BenchRunner(plan: plan).run(id: "xfs-test")
        #expect(report.results.first { $0.strategy == "replace" }?.details["usedClone"] == "true")
        let after = Set((try? FileManager.default.contentsOfDirectory(atPath: "/tmp")) ?? []).filter { $0.hasPrefix(ReflinkVolume.prefix) }
        let mine = after.subtracting(before).filter { $0.hasPrefix("\(ReflinkVolume.prefix)\(getpid())-") }
        #expect(mine.isEmpty, "left behind: \(mine)")
    }

    /// A volume left mounted by a process that no longer exists is unmounted, detached and deleted.
    @Test func aStaleVolumeOfADeadProcessIsRemoved() throws {
        let scratch = try Scratch("bench-stale")
        // A pid that is certainly dead: a child that has exited and been reaped.
        let gone = try ProcessSpawn.run(try #require(ProcessSpawn.which("sh")), ["-c", "echo $$"])
        let pid = try #require(Int32(gone.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)))
        let base = "\(ReflinkVolume.prefix)\(pid)-1"
        let image = scratch.path(base + ".img").path, mountPoint = scratch.path(base + ".mnt").path
        #expect(FileManager.default.createFile(atPath: image, contents: nil) && truncate(image, 400_000_000) == 0)
        let losetup = try #require(ProcessSpawn.which("losetup"))
        let device = try ProcessSpawn.run(losetup, ["--find", "--show", image]).standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(device.hasPrefix("/dev/loop"))
        #expect(try ProcessSpawn.run(try #require(ProcessSpawn.which("mkfs.xfs")), ["-q", "-f", "-m", "reflink=1", device]).succeeded)
        try FileManager.default.createDirectory(atPath: mountPoint, withIntermediateDirectories: true)
        #expect(try ProcessSpawn.run(try #require(ProcessSpawn.which("mount")), [device, mountPoint]).succeeded)
        #expect(Self.mounted(mountPoint))

        ReflinkVolume.removeStale(in: scratch.url)

        #expect(!Self.mounted(mountPoint))
        #expect(!Self.attached(image))
        #expect(!FileManager.default.fileExists(atPath: image))
        #expect(!FileManager.default.fileExists(atPath: mountPoint))
    }
}
