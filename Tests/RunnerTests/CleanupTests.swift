import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// A runner stopped in the middle of a FaultFS run leaves nothing behind: on SIGINT it cleans up itself, and
/// after SIGKILL the next run does: no mount, no writer, no scratch directory.
@Suite(.serialized, .ownThread) struct CleanupTests {
    static func mounts(under url: URL) -> Int {
        ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.contains(url.path) }.count
    }

    /// Processes whose command line names `root` (writers, strategy children, the FaultFS daemon).
    static func processes(under root: URL) throws -> [Int32] {
        try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains(root.path)
        }
    }

    /// Starts `lifeboat run crash-durable.yaml`, waits until its FaultFS is mounted and writers are going, and
    /// stops it with `signal`.
    static func runAndStop(scratch: Scratch, root: URL, with signal: Int32) throws -> Process {
        let process = Process()
        process.executableURL = try LifeboatExecutable.locate()
        process.arguments = ["run", DrillTests.scenarios.appendingPathComponent("crash-durable.yaml").path,
                             "--scratch", root.path, "--reports", scratch.path("reports").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while mounts(under: root) == 0, Date() < deadline, process.isRunning { usleep(20_000) }
        #expect(mounts(under: root) == 1, "the run never mounted FaultFS")
        usleep(300_000)
        kill(process.processIdentifier, signal)
        process.waitUntilExit()
        return process
    }

    @Test func nextRunCleansUpAfterARunnerKilledWithSIGKILL() throws {
        let scratch = try Scratch("cleanup")
        let root = scratch.path("scratch")
        _ = try Self.runAndStop(scratch: scratch, root: root, with: SIGKILL)
        // The FaultFS daemon watches its parent and may already be unmounting itself; whatever is still mounted,
        // running or written under the dead run's scratch directory is the next run's to clear.
        var scenario = try ScenarioParser.parse(file: DrillTests.scenarios.appendingPathComponent("smoke.yaml"))
        scenario.writers.transactions = 20
        scenario.schedule = []
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: root)
        let (result, _) = try ScenarioRunner(scenario: scenario, file: "smoke", settings: settings).run()
        #expect(result.events.contains { $0.detail.contains("cleaned up after a run that died") })
        #expect(Self.mounts(under: root) == 0)
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path)
        #expect(left.isEmpty, "\(left)")
        usleep(500_000)
        let alive = try Self.processes(under: root)
        #expect(alive.isEmpty, "processes of the killed run still alive: \(alive)")
    }

    @Test func SIGINTStopsTheRunAndLeavesNothingBehind() throws {
        let scratch = try Scratch("cleanup-int")
        let root = scratch.path("scratch")
        let process = try Self.runAndStop(scratch: scratch, root: root, with: SIGINT)
        #expect(process.terminationStatus == 130, "an interrupted run exits 130")
        #expect(Self.mounts(under: root) == 0)
        let alive = try Self.processes(under: root)
        #expect(alive.isEmpty, "processes of the interrupted run still alive: \(alive)")
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasSuffix(".pids") }
        #expect(left.isEmpty, "\(left)")
    }

    @Test func SIGTERMStopsTheRunAndExits143() throws {
        let scratch = try Scratch("cleanup-term")
        let root = scratch.path("scratch")
        let process = try Self.runAndStop(scratch: scratch, root: root, with: SIGTERM)
        #expect(process.terminationStatus == 143, "a run stopped by SIGTERM exits 128 + 15, as a shell reports it")
        #expect(Self.mounts(under: root) == 0)
        let alive = try Self.processes(under: root)
        #expect(alive.isEmpty, "processes of the terminated run still alive: \(alive)")
        // The cut-short run's JUnit is an error, so CI shows it red.
        let junit = try String(contentsOf: scratch.path("reports").appendingPathComponent("latest/junit.xml"), encoding: .utf8)
        #expect(junit.contains("<error message=\"interrupted by SIGTERM\""), "\(junit)")
    }
}
