import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// Sidecars run beside the writers: started and stopped by the runner (SIGTERM, then SIGKILL after the grace),
/// with the tools' variables, their output in the run directory and the report; a crash kills them and whatever
/// they started, even a process that left their process group.
@Suite(.serialized, .ownThread) struct SidecarTests {
    static func alive(_ pid: Int32) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first != "Z"
    }

    static func waitDead(_ pid: Int32) -> Bool {
        let deadline = Date().addingTimeInterval(3)
        while alive(pid), Date() < deadline { usleep(10_000) }
        return !alive(pid)
    }

    static func pid(in file: URL) throws -> Int32 {
        let text = try String(contentsOf: file, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
        return try #require(Int32(text), "no pid in \(file.path)")
    }

    @Test func sidecarsStartStopAndReport() throws {
        let scratch = try Scratch("sidecar")
        let pidFile = scratch.path("grandchild.pid")
        let file = scratch.path("sidecars.yaml")
        try """
            name: sidecars
            store: {objects: 30, blob_fraction: 0}
            writers: {count: 1, transactions: 40, rate: 50, blob_fraction: 0}
            schedule:
              - backup: replace
                after_commits: 10
            sidecars:
              - name: watcher
                command: 'echo "store=$LIFEBOAT_STORE root=$LIFEBOAT_BACKUP_ROOT dir=$LIFEBOAT_SCENARIO_DIR"; while true; do sleep 0.05; done'
              - name: stubborn
                command: 'trap "" TERM; sleep 300 & echo $! > \(pidFile.path); while true; do sleep 0.05; done'
                grace: 0.5
              - name: late
                command: 'trap "echo got TERM; exit 0" TERM; while true; do sleep 0.05; done'
                start: at_seconds 0.3
                grace: 2
            expect: pass
            """.write(to: file, atomically: true, encoding: .utf8)
        let (result, directory) = try DrillTests.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch)
        #expect(result.expectationMet, "\(result.verdicts.filter { $0.status == .violated }) \(result.errors)")
        let sidecars = result.operations.filter { $0.action == "sidecar" }
        #expect(sidecars.map(\.name) == ["sidecar-watcher", "sidecar-stubborn", "sidecar-late"])
        #expect(sidecars.map { $0.details["ended"] ?? "" } == ["stopped (SIGTERM)", "killed after a grace of 0.5 s", "stopped (SIGTERM)"], "\(sidecars)")
        #expect(sidecars.map(\.succeeded) == [true, false, true])
        // Stopped once the writers were done, before the end of the run.
        let writersDone = result.writers.compactMap(\.lastCommit).max() ?? 0
        #expect(sidecars.allSatisfy { $0.end >= writersDone && $0.end <= result.seconds }, "\(sidecars.map(\.end)) vs \(writersDone)")
        let log = try String(contentsOf: directory.url.appendingPathComponent("sidecar-watcher.log"), encoding: .utf8)
        #expect(log.contains("store=/") && log.contains("Library.sqlite root=/") && log.contains("/backups dir=\(scratch.url.path)"), "\(log)")
        #expect(try String(contentsOf: directory.url.appendingPathComponent("sidecar-late.log"), encoding: .utf8).contains("got TERM"))
        #expect(Self.waitDead(try Self.pid(in: pidFile)), "the sidecar's child outlived it")
        #expect(try String(contentsOf: directory.url.appendingPathComponent("report.md"), encoding: .utf8).contains("sidecar-watcher"))
        let repro = try ScenarioParser.parse(file: directory.url.appendingPathComponent("repro.yaml"))
        #expect(repro.sidecars.map(\.name) == ["watcher", "stubborn", "late"])
    }

    @Test func aCrashKillsSidecarsAndWhatTheyStarted() throws {
        let scratch = try Scratch("sidecar-crash")
        let pidFile = scratch.path("escaped.pid")
        let file = scratch.path("crash.yaml")
        // setsid puts the grandchild in a session of its own: neither the pid file nor a process group reaches it,
        // only the run's mark in its environment.
        try """
            name: sidecar-crash
            store: {objects: 30, blob_fraction: 0}
            writers: {count: 1, transactions: 200, rate: 60, blob_fraction: 0}
            sidecars:
              - name: tool
                command: 'setsid sleep 300 & echo $! > \(pidFile.path); while true; do sleep 0.05; done'
            faults:
              crash: {after_commits: 30}
            expect: pass
            """.write(to: file, atomically: true, encoding: .utf8)
        let (result, _) = try DrillTests.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch)
        let sidecar = try #require(result.operations.first { $0.action == "sidecar" })
        #expect(sidecar.details["ended"] == "killed by the crash", "\(sidecar)")
        let crashAt = try #require(result.events.first { $0.kind == .crash }?.t)
        #expect(sidecar.end >= crashAt)
        #expect(Self.waitDead(try Self.pid(in: pidFile)), "a process the sidecar started survived the crash")
    }
}
