import ChildProcesses
import FaultFS
import Foundation

/// Child processes of a run (writers, backup and restore steps, sidecars), started through ChildProcesses
/// (posix_spawn, each in its own process group so a crash kills and a pause freezes what a step started too),
/// their output in log files, and a pid file (runner pid first, then its children) so a runner killed with
/// SIGKILL has its orphans, mounts and scratch removed by the next run.
///
/// When the store lives on FaultFS the runner sets `syncShim`, and every child started `onVolume` gets the
/// sync shim preloaded (its sync(2)/syncfs(2), and its descendants', reach FaultFS as `sync-all`).
public final class ChildRegistry: @unchecked Sendable {
    public final class Child: Sendable {
        public let process: SpawnedChild
        public let log: URL
        init(process: SpawnedChild, log: URL) {
            self.process = process
            self.log = log
        }
        public var name: String { process.name }
        public var pid: Int32 { process.pid }
        public var isRunning: Bool { process.isRunning }
        /// The exit status once it ended: the exit code, or minus the signal that ended it.
        public var status: Int32? { process.termination?.status }
        public var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    /// The sync shim children on the store's volume get (nil when the volume is not FaultFS or the library was
    /// not built).
    public var syncShim: SyncShim? {
        get { lock.withLock { shim } }
        set { lock.withLock { shim = newValue } }
    }
    private var shim: SyncShim?
    /// Called with every child right after it started (the runner arms the fault rules scoped to it).
    var onStart: ((Child) -> Void)?

    let pidFile: URL
    let logDirectory: URL
    private let lock = NSLock()
    private var children: [Child] = []

    public init(pidFile: URL, logDirectory: URL) throws {
        self.pidFile = pidFile
        self.logDirectory = logDirectory
        try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: pidFile.deletingLastPathComponent(), withIntermediateDirectories: true)
        try (String(getpid()) + "\n").write(to: pidFile, atomically: true, encoding: .utf8)
    }

    /// What an earlier run that died left behind: its children killed, its FaultFS mounts cleared, its scratch
    /// directory removed. A run is dead when the runner pid on the first line of its pid file is gone; runs whose
    /// runner lives (another `lifeboat run` sharing the scratch root) are left alone.
    public struct Leftovers: Sendable {
        public var processes = 0
        public var mounts = 0
        public var directories = 0
    }

    public static func reapDeadRuns(in scratchRoot: URL) -> Leftovers {
        var leftovers = Leftovers()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: scratchRoot.path)) ?? []
        for name in names where name.hasSuffix(".pids") {
            let file = scratchRoot.appendingPathComponent(name)
            let lines = ((try? String(contentsOf: file, encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
            if let runner = lines.first.flatMap({ Int32($0.trimmingCharacters(in: .whitespaces)) }), isLifeboat(runner) { continue }
            var killed: [Int32] = []
            for line in lines.dropFirst() {
                guard let pid = Int32(line.trimmingCharacters(in: .whitespaces)), pid > 1, isLifeboat(pid) else { continue }
                // Children lead their own process groups: the group goes too (a backup script's grandchildren).
                if kill(-pid, SIGKILL) == 0 || kill(pid, SIGKILL) == 0 { leftovers.processes += 1; killed.append(pid) }
            }
            leftovers.processes += signalMarked(mark(forPidFile: file), SIGKILL)
            let directory = scratchRoot.appendingPathComponent(String(name.dropLast(".pids".count)))
            // The run's FaultFS daemon is no child of the registry and carries no mark; its command line names
            // the run's directory (its mountpoint and op log). Once its runner died it unmounts and writes its op
            // log into that directory, so it must be gone before the directory is removed.
            for pid in processes(naming: directory) where kill(pid, SIGKILL) == 0 {
                leftovers.processes += 1
                killed.append(pid)
            }
            waitUntilGone(killed, mark: mark(forPidFile: file), seconds: 10)
            leftovers.mounts += FaultFSMount.cleanStaleMounts(under: directory).count
            if FileManager.default.fileExists(atPath: directory.path), removeWithRetries(directory) {
                leftovers.directories += 1
            }
            try? FileManager.default.removeItem(at: file)
        }
        return leftovers
    }

    /// Lifeboat processes (the FaultFS daemon among them) whose command line names `directory`.
    static func processes(naming directory: URL) -> [Int32] {
        let me = getpid()
        return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap(Int32.init).filter { pid in
            guard pid != me, pid > 1, let cmdline = commandLine(of: pid) else { return false }
            return isLifeboat(commandLine: cmdline) && cmdline.contains(directory.path + "/")
        }
    }

    /// Removes `directory`, trying again for up to 2 s: a process that just died can still be closing files in it.
    static func removeWithRetries(_ directory: URL) -> Bool {
        for attempt in 0..<20 {
            if (try? FileManager.default.removeItem(at: directory)) != nil { return true }
            if !FileManager.default.fileExists(atPath: directory.path) { return attempt > 0 }
            usleep(100_000)
        }
        return false
    }

    static func isLifeboat(_ pid: Int32) -> Bool { commandLine(of: pid).map(isLifeboat(commandLine:)) ?? false }

    static func isLifeboat(commandLine: String) -> Bool {
        commandLine.contains("lifeboat") || commandLine.contains("LifeboatPackageTests") || commandLine.contains("faultfs")
    }

    /// The command line of a live process, or nil.
    static func commandLine(of pid: Int32) -> String? {
        guard kill(pid, 0) == 0 else { return nil }
        return try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8)
    }

    /// Starts a child whose stdout and stderr go to `logs/NAME.log`. `environment` is added to this process's;
    /// `onVolume` children get the sync shim when there is one.
    public func start(_ name: String, executable: URL, arguments: [String], environment: [String: String] = [:],
                      onVolume: Bool = true) throws -> Child {
        let log = logDirectory.appendingPathComponent("\(name).log")
        // The run mark goes into every child's environment, so the processes it starts are found at a crash.
        let marked = environment.merging([Self.markVariable: Self.mark(forPidFile: pidFile)]) { _, mark in mark }
        let spec = ChildSpec(name: name, executable: executable.path, arguments: arguments, environment: marked,
                             output: .file(log.path), ownProcessGroup: true, syncShim: onVolume ? syncShim : nil)
        let process: SpawnedChild
        do {
            process = try SpawnedChild.start(spec)
        } catch {
            throw RunError.environment(error.description)
        }
        let child = Child(process: process, log: log)
        lock.withLock { children.append(child) }
        try? (([String(getpid())] + lock.withLock { children.map { String($0.pid) } }).joined(separator: "\n") + "\n")
            .write(to: pidFile, atomically: true, encoding: .utf8)
        onStart?(child)
        return child
    }

    /// The name of the first child among `pids` (a caller and its ancestors), e.g. the backup step whose script's
    /// `cp` made a call.
    public func name(ofAny pids: [Int32]) -> String? {
        let known = lock.withLock { children.map { ($0.pid, $0.name) } }
        for pid in pids { if let match = known.first(where: { $0.0 == pid }) { return match.1 } }
        return nil
    }

    /// Waits for a child; kills it (and its group) after `timeout` seconds. Returns its exit status (minus the
    /// signal when one ended it, -9 when killed). SIGINT/SIGTERM (`Interruption`) cut the wait short: the child
    /// is killed and `RunError.interrupted` thrown, so Ctrl-C is honoured within milliseconds.
    public func wait(_ child: Child, timeout: Double) throws -> Int32 {
        let termination = child.process.wait(timeout: timeout, stop: { Interruption.requested })
        if termination.stopped { throw RunError.interrupted }
        return termination.status
    }

    /// SIGKILLs every child still running (a crash, or the end of a run) and its process group, and reaps them;
    /// without a filter, every process the children started too, wherever it went (`ChildRegistry+Marks.swift`).
    public func killAll(_ filter: ((Child) -> Bool)? = nil) {
        let chosen = lock.withLock { children.filter { filter?($0) ?? true } }
        for child in chosen { child.process.signal(SIGKILL) }
        if filter == nil { Self.signalMarked(Self.mark(forPidFile: pidFile), SIGKILL) }
        for child in chosen where child.isRunning { child.process.wait() }
    }

    /// SIGSTOPs every child still running and its group: time stands still for the store's processes (a crash
    /// that is about to come must find them where they were, while the runner reads what it needs first).
    /// Sends `signal` to the running children `filter` picks (and to their process groups: a writer's is its own).
    public func signal(_ signal: Int32, _ filter: (Child) -> Bool) {
        let chosen = lock.withLock { children.filter { $0.isRunning && filter($0) } }
        for child in chosen { child.process.signal(signal) }
    }

    /// Every child the run started, in order.
    var all: [Child] { lock.withLock { children } }

    /// The children still running that `filter` picks.
    func running(_ filter: (Child) -> Bool) -> [Child] {
        lock.withLock { children.filter { $0.isRunning && filter($0) } }
    }

    public func pauseAll() {
        let running = lock.withLock { children.filter { $0.isRunning } }
        for child in running { child.process.signal(SIGSTOP) }
        Self.signalMarked(Self.mark(forPidFile: pidFile), SIGSTOP)
    }

    public func finish() {
        killAll()
        try? FileManager.default.removeItem(at: pidFile)
    }
}
