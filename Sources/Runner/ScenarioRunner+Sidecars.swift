import Checks
import Foundation
import Reporting
import Scenario

/// The sidecars of one run: which have started, when, and how each ended.
final class SidecarState {
    struct Entry {
        var sidecar: Scenario.Sidecar
        var child: ChildRegistry.Child
        var start: Double
        var end: Double?
        /// How it ended: "stopped (SIGTERM)", "killed after the grace", "killed by the crash", "exited with N".
        var ending: String?
        /// `sidecar-<name>`, `.2` and on for later instances: its name in the timeline, the logs and the report.
        var label: String
    }

    var pending: [Scenario.Sidecar] = []
    var entries: [Entry] = []
    /// What every program of the run gets (`ScenarioRunner.toolEnvironment`).
    var environment: [String: String] = [:]
    /// The backup area's size while a sidecar runs (`ScenarioRunner+BackupGrowth`, for `no-runaway`).
    var backupSizes: [Invariants.SizeSample] = []
}

extension ScenarioRunner {
    /// What a tool the scenario runs needs to find its way, the same for `command` steps and sidecars:
    /// LIFEBOAT_STORE (the live store), LIFEBOAT_BACKUP_ROOT (where backups go: on the store's volume with
    /// `faults.backups_on_volume`, so a tool's repository or replica there meets the crash too), LIFEBOAT_SCRATCH
    /// (the run's scratch directory) and LIFEBOAT_SCENARIO_DIR (the scenario file's directory, for its scripts).
    func toolEnvironment(live: URL, scratch: URL, volume: any StoreVolume) -> [String: String] {
        let base = scenario.faults.backupsOnVolume ? volume.directory : scratch
        return [
            "LIFEBOAT_STORE": live.path,
            "LIFEBOAT_BACKUP_ROOT": base.appendingPathComponent("backups").path,
            "LIFEBOAT_SCRATCH": scratch.path,
            "LIFEBOAT_SCENARIO_DIR": URL(fileURLWithPath: scenarioFile).deletingLastPathComponent().path,
        ]
    }

    /// Starts the sidecars that are due and stops those whose time has come (`after_writers` ones once no writer
    /// runs); notes those that ended on their own or by a crash. Called from the schedulers' loops.
    func tickSidecars(children: ChildRegistry, writersRunning: Bool) throws {
        let state = sidecarState
        let t = now()
        for (position, entry) in state.entries.enumerated() where entry.end == nil && Self.hasExited(entry.child) {
            endSidecar(position, ending: Self.ending(of: entry.child, crashed: record.crash != nil))
            if let reason = Self.environmentFailure(of: entry.child) { throw RunError.environment("sidecar \(entry.sidecar.name): \(reason)") }
        }
        var waiting: [Scenario.Sidecar] = []
        for sidecar in state.pending {
            let due: Bool
            switch sidecar.start {
            case .withWriters: due = true
            case .atSeconds(let at): due = t >= at
            }
            // A sidecar due after the crash is not started: the power is off for the rest of the writers' time.
            guard due, record.crash == nil else {
                waiting.append(sidecar)
                continue
            }
            try startSidecar(sidecar, children: children)
        }
        state.pending = waiting
        for (position, entry) in state.entries.enumerated() where entry.end == nil {
            switch entry.sidecar.stop {
            case .afterWriters: if !writersRunning { stopSidecar(position) }
            case .atSeconds(let at): if now() >= at { stopSidecar(position) }
            }
        }
        sampleBackupArea()
    }

    /// Starts one instance of a sidecar: `sidecar-<name>`, then `sidecar-<name>.2`, ... when a schedule entry
    /// starts it again (each with its own log).
    func startSidecar(_ sidecar: Scenario.Sidecar, children: ChildRegistry) throws {
        let state = sidecarState
        try FileManager.default.createDirectory(atPath: state.environment["LIFEBOAT_BACKUP_ROOT"] ?? "/", withIntermediateDirectories: true)
        let instance = state.entries.filter { $0.sidecar.name == sidecar.name }.count + 1
        let label = "sidecar-\(sidecar.name)" + (instance > 1 ? ".\(instance)" : "")
        let child = try children.start(label, executable: URL(fileURLWithPath: "/bin/sh"),
                                       arguments: ["-c", sidecar.command], environment: state.environment)
        state.entries.append(SidecarState.Entry(sidecar: sidecar, child: child, start: now(), label: label))
        note(label, .start, sidecar.command)
    }

    /// At the end of a run: stops every sidecar still running and adds one operation per sidecar to the report,
    /// with the tail of its output.
    func stopSidecars() {
        let state = sidecarState
        for (position, entry) in state.entries.enumerated() where entry.end == nil {
            if !Self.hasExited(entry.child) { stopSidecar(position) } else { endSidecar(position, ending: Self.ending(of: entry.child, crashed: record.crash != nil)) }
        }
        for sidecar in state.pending {
            record.errors.append("sidecar \(sidecar.name) never started (start: \(sidecar.start); the run ended first)")
        }
        state.pending = []
        for entry in state.entries where record.environmentError == nil {
            if let reason = Self.environmentFailure(of: entry.child) { record.environmentError = "sidecar \(entry.sidecar.name): \(reason)" }
        }
        for entry in state.entries {
            let output = entry.child.output
            let clean = entry.ending.map { $0.hasPrefix("stopped") || $0 == "exited with 0" || $0 == "killed by the crash" || $0.hasPrefix("killed by schedule") } ?? false
            var summary = OperationSummary(name: entry.label, action: "sidecar", strategy: entry.sidecar.name,
                                           start: entry.start, end: entry.end ?? now(), succeeded: clean, store: "",
                                           details: ["command": entry.sidecar.command, "ended": entry.ending ?? "?",
                                                     "log": "\(entry.label).log"],
                                           error: clean ? nil : "\(entry.ending ?? "?"): \(String(output.suffix(400)))")
            summary.details["outputTail"] = String(output.suffix(600))
            record.operations.append(summary)
        }
    }

    /// Copies each sidecar's whole output into the run directory (`sidecar-<name>.log`).
    func copySidecarLogs(to run: RunDirectory) {
        for entry in sidecarState.entries {
            try? run.write("\(entry.label).log", entry.child.output)
        }
    }

    /// SIGTERM to the sidecar's process group (the shell and the tool it runs), SIGKILL after the grace.
    func stopSidecar(_ position: Int) {
        let entry = sidecarState.entries[position]
        let pid = entry.child.pid
        // Every child of the run leads a process group of its own: the group holds the tool too.
        let group = getpgid(pid) == pid ? -pid : pid
        kill(group, SIGTERM)
        let deadline = Date().addingTimeInterval(entry.sidecar.grace)
        while !Self.hasExited(entry.child), Date() < deadline { usleep(5_000) }
        var ending = "stopped (SIGTERM)"
        if !Self.hasExited(entry.child) {
            kill(group, SIGKILL)
            kill(pid, SIGKILL)
            ending = "killed after a grace of \(entry.sidecar.grace) s"
        }
        // What is left of its group (a background child that ignored SIGTERM) goes when the leader is reaped; a
        // stray outside the group is left to the end of the run, which kills every marked process.
        let settle = Date().addingTimeInterval(1)
        while entry.child.isRunning, Date() < settle { usleep(5_000) }
        endSidecar(position, ending: ending)
    }

    /// Whether the sidecar has ended: every process of its group (the shell, and the tool it runs, which may
    /// take a while to shut down after SIGTERM) is gone or a zombie. The group is looked at BEFORE the leader is
    /// reaped, because reaping a group leader kills what is left of its group (ChildProcesses), and a tool
    /// finishing its shutdown after SIGTERM must be given its grace. Every thread counts, since a multithreaded
    /// tool (a Go program shutting down) can show its first thread as a zombie while the others still work.
    static func hasExited(_ child: ChildRegistry.Child) -> Bool {
        if child.status != nil { return true }
        let pid = child.pid
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        let groupAlive = entries.contains { entry in
            guard let member = Int32(entry), let stat = try? String(contentsOfFile: "/proc/\(member)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            return fields.count > 2 && Int32(fields[2]) == pid && ChildRegistry.isAlive(member)
        }
        if groupAlive { return false }
        return !child.isRunning
    }

    /// How a sidecar that is no longer running ended on its own (or by the crash's SIGKILL).
    static func ending(of child: ChildRegistry.Child, crashed: Bool) -> String {
        guard let termination = child.process.termination else { return "still running" }
        guard let signal = termination.signal else { return "exited with \(termination.exitCode)" }
        return crashed && signal == SIGKILL ? "killed by the crash" : "killed by signal \(signal)"
    }

    func endSidecar(_ position: Int, ending: String) {
        sidecarState.entries[position].end = now()
        sidecarState.entries[position].ending = ending
        note(sidecarState.entries[position].label, .end, ending)
        disarmScopedFaults(of: sidecarState.entries[position].label)
    }
}
