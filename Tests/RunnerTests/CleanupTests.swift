import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// A runner killed with SIGKILL in the middle of a FaultFS run leaves nothing behind once the next run starts:
/// no mount, no writer, no scratch directory.
@Suite(.serialized) struct CleanupTests {
    static func mounts(under url: URL) -> Int {
        ((try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? "").split(separator: "\n")
            .filter { $0.contains(url.path) }.count
    }

    @Test func nextRunCleansUpAfterARunnerKilledWithSIGKILL() throws {
        let scratch = try Scratch("cleanup")
        let root = scratch.path("scratch")
        let process = Process()
        process.executableURL = try LifeboatExecutable.locate()
        process.arguments = ["run", DrillTests.scenarios.appendingPathComponent("crash-durable.yaml").path,
                             "--scratch", root.path, "--reports", scratch.path("reports").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Self.mounts(under: root) == 0, Date() < deadline, process.isRunning { usleep(20_000) }
        #expect(Self.mounts(under: root) == 1, "the run never mounted FaultFS")
        usleep(300_000)
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
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
        let writers = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains(root.path)
        }
        #expect(writers.isEmpty, "processes of the killed run still alive: \(writers)")
    }

    @Test func SIGINTStopsTheRunAndLeavesNothingBehind() throws {
        let scratch = try Scratch("cleanup-int")
        let root = scratch.path("scratch")
        let process = Process()
        process.executableURL = try LifeboatExecutable.locate()
        process.arguments = ["run", DrillTests.scenarios.appendingPathComponent("crash-durable.yaml").path,
                             "--scratch", root.path, "--reports", scratch.path("reports").path]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while Self.mounts(under: root) == 0, Date() < deadline, process.isRunning { usleep(20_000) }
        #expect(Self.mounts(under: root) == 1, "the run never mounted FaultFS")
        usleep(300_000)
        kill(process.processIdentifier, SIGINT)
        process.waitUntilExit()
        #expect(process.terminationStatus == 130, "an interrupted run exits 130")
        #expect(Self.mounts(under: root) == 0)
        let writers = try FileManager.default.contentsOfDirectory(atPath: "/proc").compactMap(Int32.init).filter { pid in
            ((try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)) ?? "").contains(root.path)
        }
        #expect(writers.isEmpty, "processes of the interrupted run still alive: \(writers)")
        let left = try FileManager.default.contentsOfDirectory(atPath: root.path).filter { !$0.hasSuffix(".pids") }
        #expect(left.isEmpty, "\(left)")
    }
}
