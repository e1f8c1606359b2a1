import Checks
import Foundation
import Reporting
import Scenario

/// The sidecars of one run (continuous backup tools running beside the app): which have started, when, how
/// each ended, and the backup area's size while they run.
final class Sidecars {
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

    let scenario: Scenario
    let journal: RunJournal
    private let scopedFaults: ScopedFaults
    /// Sidecars not started yet.
    var pending: [Scenario.Sidecar] = []
    private(set) var entries: [Entry] = []
    /// What every program of the run gets (`ToolEnvironment`); a `relocate` points it at the moved store.
    var environment: [String: String] = [:]
    /// The backup area's size while a sidecar runs (`Sidecars+BackupArea`, for `no-runaway`).
    var backupSizes: [Invariants.SizeSample] = []

    init(scenario: Scenario, journal: RunJournal, scopedFaults: ScopedFaults) {
        self.scenario = scenario
        self.journal = journal
        self.scopedFaults = scopedFaults
        pending = scenario.sidecars
    }

    private var crashed: Bool { journal.record.crash != nil }

    /// Starts the sidecars that are due and stops those whose time has come (`after_writers` ones once no writer
    /// runs); notes those that ended on their own or by a crash. Called from the schedulers' loops.
    func tick(children: ChildRegistry, writersRunning: Bool) throws {
        let t = journal.clock.now()
        for (position, entry) in entries.enumerated() where entry.end == nil && Self.hasExited(entry.child) {
            end(position, ending: Self.ending(of: entry.child, crashed: crashed))
            if let reason = RunEnvironment.failure(of: entry.child) { throw RunError.environment("sidecar \(entry.sidecar.name): \(reason)") }
        }
        var waiting: [Scenario.Sidecar] = []
        for sidecar in pending {
            let due: Bool
            switch sidecar.start {
            case .withWriters: due = true
            case .atSeconds(let at): due = t >= at
            }
            // A sidecar due after the crash is not started: the power is off for the rest of the writers' time.
            guard due, !crashed else {
                waiting.append(sidecar)
                continue
            }
            try start(sidecar, children: children)
        }
        pending = waiting
        for (position, entry) in entries.enumerated() where entry.end == nil {
            switch entry.sidecar.stop {
            case .afterWriters: if !writersRunning { stop(position) }
            case .atSeconds(let at): if journal.clock.now() >= at { stop(position) }
            }
        }
        sampleBackupArea()
    }

    /// Starts one instance of a sidecar: `sidecar-<name>`, then `sidecar-<name>.2`, ... when a schedule entry
    /// starts it again (each with its own log).
    func start(_ sidecar: Scenario.Sidecar, children: ChildRegistry) throws {
        try FileManager.default.createDirectory(atPath: environment["LIFEBOAT_BACKUP_ROOT"] ?? "/", withIntermediateDirectories: true)
        let instance = entries.filter { $0.sidecar.name == sidecar.name }.count + 1
        let label = "sidecar-\(sidecar.name)" + (instance > 1 ? ".\(instance)" : "")
        let child = try children.start(label, executable: URL(fileURLWithPath: "/bin/sh"),
                                       arguments: ["-c", sidecar.command], environment: environment)
        entries.append(Entry(sidecar: sidecar, child: child, start: journal.clock.now(), label: label))
        journal.note(label, .start, sidecar.command)
    }

    /// At the end of a run: stops every sidecar still running; returns one operation per sidecar, with the tail
    /// of its output, and the run's errors and environment error its sidecars explain.
    func stopAll() -> [RunRecord.Entry] {
        var found: [RunRecord.Entry] = []
        for (position, entry) in entries.enumerated() where entry.end == nil {
            if !Self.hasExited(entry.child) { stop(position) } else { end(position, ending: Self.ending(of: entry.child, crashed: crashed)) }
        }
        for sidecar in pending {
            found.append(.error("sidecar \(sidecar.name) never started (start: \(sidecar.start); the run ended first)"))
        }
        pending = []
        for entry in entries {
            if let reason = RunEnvironment.failure(of: entry.child) { found.append(.environmentError("sidecar \(entry.sidecar.name): \(reason)")) }
        }
        for entry in entries {
            let output = entry.child.output
            let clean = entry.ending.map { $0.hasPrefix("stopped") || $0 == "exited with 0" || $0 == "killed by the crash" || $0.hasPrefix("killed by schedule") } ?? false
            var summary = OperationSummary(name: entry.label, action: "sidecar", strategy: entry.sidecar.name,
                                           start: entry.start, end: entry.end ?? journal.clock.now(), succeeded: clean, store: "",
                                           details: ["command": entry.sidecar.command, "ended": entry.ending ?? "?",
                                                     "log": "\(entry.label).log"],
                                           error: clean ? nil : "\(entry.ending ?? "?"): \(String(output.suffix(400)))")
            summary.details["outputTail"] = String(output.suffix(600))
            found.append(.operation(summary))
        }
        return found
    }

    /// Copies each sidecar's whole output into the run directory (`sidecar-<name>.log`).
    func copyLogs(to run: RunDirectory) {
        for entry in entries {
            try? run.write("\(entry.label).log", entry.child.output)
        }
    }

    /// The running instances of the sidecar `name`, by position.
    func running(_ name: String) -> [Int] {
        entries.indices.filter { entries[$0].sidecar.name == name && entries[$0].end == nil }
    }

    /// SIGKILL to the instance's process group, where it stands (`action: kill`).
    func killInstance(_ position: Int, by who: String) {
        let pid = entries[position].child.pid
        kill(getpgid(pid) == pid ? -pid : pid, SIGKILL)
        kill(pid, SIGKILL)
        let settle = Date().addingTimeInterval(1)
        while entries[position].child.isRunning, Date() < settle { usleep(5_000) }
        end(position, ending: "killed by \(who) (SIGKILL)")
    }

    /// SIGTERM to the sidecar's process group (the shell and the tool it runs), SIGKILL after the grace.
    func stop(_ position: Int) {
        let entry = entries[position]
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
        end(position, ending: ending)
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

    private func end(_ position: Int, ending: String) {
        entries[position].end = journal.clock.now()
        entries[position].ending = ending
        journal.note(entries[position].label, .end, ending)
        scopedFaults.disarm(sidecar: entries[position].label)
    }
}
