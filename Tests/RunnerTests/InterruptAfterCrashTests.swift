import ChildProcesses
import Foundation
import LifeboatTestSupport
import Runner
import Testing

/// SIGINT reaches the runner while it waits on a step of the schedule left after a crash: the step is
/// killed and `lifeboat run` exits 130 at once, not when the step would have ended.
@Suite(.serialized, .ownThread) struct InterruptAfterCrashTests {
    @Test func SIGINTDuringTheScheduleAfterACrashExits130Promptly() throws {
        let scratch = try Scratch("interrupt-after-crash")
        let scenario = scratch.path("sleepy.yaml")
        try """
            name: sleepy-after-crash
            seed: 3
            store: {objects: 60, blob_fraction: 0}
            writers: {count: 1, transactions: 40, rate: 200}
            schedule:
              - backup: command
                command: sleep 300
                after_writers: true
            faults:
              crash: {after_commits: 20}
            time_limit: 600
            """.write(to: scenario, atomically: true, encoding: .utf8)
        let reports = scratch.path("reports")
        let run = try SpawnedChild.start(ChildSpec(
            name: "lifeboat", executable: try LifeboatExecutable.locate().path,
            arguments: ["run", scenario.path, "--reports", reports.path, "--scratch", scratch.path("scratch").path],
            output: .file(scratch.path("out.log").path)))
        // The step's log appears in the run directory once the runner started it (after the crash).
        let deadline = Date().addingTimeInterval(120)
        func stepStarted() -> Bool {
            let runs = (try? FileManager.default.contentsOfDirectory(atPath: reports.path)) ?? []
            return runs.contains { FileManager.default.fileExists(atPath: reports.appendingPathComponent("\($0)/logs/backup-0.log").path) }
        }
        while !stepStarted(), run.isRunning, Date() < deadline { usleep(50_000) }
        #expect(stepStarted(), "the step after the crash never started")
        usleep(500_000)
        let sent = Date()
        #expect(run.signal(SIGINT))
        let termination = run.wait(timeout: 60)
        #expect(termination.exitCode == 130, "\((try? String(contentsOf: scratch.path("out.log"), encoding: .utf8)) ?? "")")
        #expect(Date().timeIntervalSince(sent) < 20, "exit came \(Date().timeIntervalSince(sent)) s after SIGINT")
    }
}
