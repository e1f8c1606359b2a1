import Foundation
@testable import LifeboatCLI
import LifeboatTestSupport
import Runner
import Testing

/// `lifeboat doctor` on simulated machines (`Doctor.Probes`): without /dev/fuse it says so, with the command
/// that fixes it, and exits 2 without trying a mount; a ready machine exits 0; SQLite's WAL-reset bug range.
@Suite struct DoctorTests {
    /// A machine where everything is in order: the device is a file of the test's, every probe succeeds.
    static func healthy(_ scratch: Scratch) throws -> Doctor.Probes {
        let device = scratch.path("fuse")
        try Data().write(to: device)
        var probes = Doctor.Probes()
        probes.fuseDevice = device.path
        probes.environment = [:]
        probes.openDevice = { _ in nil }
        probes.trialMount = { _ in nil }
        probes.run = { name, _ in
            switch name {
            case "fusermount3": (0, "fusermount3 version: 3.14.0\n")
            case "pkg-config": (0, "3.14.0\n")
            case "sqlite3": (0, "3.51.3 2026-03-01 00:00:00 abcdef (64-bit)\n")
            default: nil
            }
        }
        probes.processStatus = { "Name:\tlifeboat\nCapEff:\t000001ffffffffff\n" }
        probes.kernelRelease = { "6.1.0-test" }
        probes.userID = { 0 }
        probes.linkedSQLite = { "3.51.3" }
        probes.scratch = scratch.path("scratch")
        probes.freeBytes = { _ in 20 << 30 }
        probes.recipes = nil
        return probes
    }

    @Test func aReadyMachineExitsZero() throws {
        let scratch = try Scratch("doctor-ok")
        let checks = Doctor.checks(try Self.healthy(scratch))
        #expect(Doctor.exitCode(checks) == 0)
        #expect(checks.first { $0.name == "mount" }?.status == .ok)
        #expect(checks.first { $0.name == "mount" }?.detail.contains("root, CAP_SYS_ADMIN held") == true)
        #expect(checks.first { $0.name == "versions" }?.detail == "kernel 6.1.0-test; libfuse3 3.14.0; fusermount3 version: 3.14.0")
        #expect(checks.first { $0.name == "sqlite3" }?.status == .ok)
        #expect(Doctor.lines(checks).last == "doctor: ready, 0 warning(s)")
    }

    @Test func noDevFuseIsAProblemWithItsFixAndExitsTwoWithoutTryingAMount() throws {
        let scratch = try Scratch("doctor-nofuse")
        var probes = try Self.healthy(scratch)
        probes.fuseDevice = scratch.path("no-such-device").path
        let tried = Called()
        probes.trialMount = { _ in tried.value = true; return nil }
        let checks = Doctor.checks(probes)
        #expect(Doctor.exitCode(checks) == 2)
        #expect(DoctorCommand.report(checks, json: true) == 2)
        let device = try #require(checks.first { $0.name == "fuse-device" })
        #expect(device.status == .problem)
        #expect(device.detail == "\(probes.fuseDevice) does not exist: FaultFS cannot mount, and every situation that needs it is skipped")
        #expect(device.fix?.contains("sudo modprobe fuse") == true && device.fix?.contains("--device /dev/fuse --cap-add SYS_ADMIN") == true)
        #expect(checks.first { $0.name == "mount" }?.status == .skipped)
        #expect(!tried.value)
        let lines = Doctor.lines(checks)
        #expect(lines.contains("PROBLEM fuse-device: \(device.detail)"))
        #expect(lines.last == "doctor: 1 problem(s), 0 warning(s): fix the problems above (exit 2)")
    }

    @Test func inAContainerTheFixIsTheContainersFlags() throws {
        let scratch = try Scratch("doctor-container")
        var probes = try Self.healthy(scratch)
        probes.environment = ["container": "docker"]
        probes.trialMount = { _ in "fuse: failed to open /dev/fuse: Operation not permitted" }
        probes.processStatus = { "CapEff:\t00000000a80425fb\n" }
        probes.userID = { 0 }
        let checks = Doctor.checks(probes)
        let mount = try #require(checks.first { $0.name == "mount" })
        #expect(mount.status == .problem)
        #expect(mount.detail.contains("CAP_SYS_ADMIN not held") && mount.detail.contains("Operation not permitted"))
        #expect(mount.fix == "run the container with --device /dev/fuse --cap-add SYS_ADMIN --security-opt apparmor:unconfined")
        #expect(Doctor.exitCode(checks) == 2)
    }

    @Test func noFusermountAndLowScratchSpaceAreProblemsAnOldSQLiteAWarning() throws {
        let scratch = try Scratch("doctor-tools")
        var probes = try Self.healthy(scratch)
        probes.run = { name, _ in name == "sqlite3" ? (0, "3.40.1 2022-12-28 14:03:47 df5c253c0b3dd24916e4ec7cf77d3db5294cc9fd45ae7b9c5e82ad8197f3alt1\n") : nil }
        probes.freeBytes = { _ in 100 << 20 }
        let checks = Doctor.checks(probes)
        #expect(checks.first { $0.name == "fusermount3" }?.fix == "sudo apt-get install fuse3 libfuse3-dev")
        #expect(checks.first { $0.name == "scratch" }?.status == .problem)
        let sqlite = try #require(checks.first { $0.name == "sqlite3" })
        #expect(sqlite.status == .warning && sqlite.detail.contains("3.40.1") && sqlite.detail.contains("fixed in 3.51.3"))
        #expect(Doctor.exitCode(checks) == 2)
    }

    @Test func theWALResetBugRange() {
        #expect(Doctor.hasWALResetBug("3.6.23") == false)
        #expect(Doctor.hasWALResetBug("3.7.0") == true)
        #expect(Doctor.hasWALResetBug("3.40.1") == true)
        #expect(Doctor.hasWALResetBug("3.51.2") == true)
        #expect(Doctor.hasWALResetBug("3.51.3") == false)
        #expect(Doctor.hasWALResetBug("3.52") == false)
        #expect(Doctor.hasWALResetBug("x") == nil)
    }

    /// The recipes' tools, as the matrix checks them: a recipe whose version.sh fails is a warning naming
    /// scripts/setup.sh, never a problem.
    @Test func aRecipeWhoseToolIsMissingIsAWarning() throws {
        let scratch = try Scratch("doctor-recipes")
        var probes = try Self.healthy(scratch)
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        probes.recipes = root.appendingPathComponent("Scenarios/tools")
        probes.recipeVersion = { recipe in
            if recipe.tool == "rsync" { throw ToolMatrixMissing.error }
            return "\(recipe.tool) 1.0"
        }
        let checks = Doctor.checks(probes)
        let rsync = try #require(checks.first { $0.name == "recipe rsync" })
        #expect(rsync.status == .warning && rsync.fix?.contains("scripts/setup.sh") == true)
        #expect(checks.first { $0.name == "recipe restic" }?.status == .ok)
        #expect(Doctor.exitCode(checks) == 0)
    }

    @Test func aToolsFolderThatIsNotThereIsBadInput() async {
        #expect(await LifeboatMain.run(["doctor", "--tools", "/nonexistent/lifeboat-tools"]) == 2)
    }
}

/// Whether a probe was called.
final class Called { var value = false }

/// The matrix's own "not installed" error, as its version.sh failing gives it.
enum ToolMatrixMissing {
    static let error = ToolMatrix.MatrixError.environment("rsync is not installed: `sh version.sh` failed with status 127 (rsync: not found on PATH); run scripts/setup.sh")
}
