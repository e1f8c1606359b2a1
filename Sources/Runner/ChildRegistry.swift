import FaultFS
import Foundation

/// Child processes of a run (writers, backup and restore steps), started with posix_spawn through Foundation's
/// Process, their output in log files, and a pid file (runner pid first, then its children) so a runner killed
/// with SIGKILL has its orphans, mounts and scratch removed by the next run.
public final class ChildRegistry: @unchecked Sendable {
    public final class Child {
        public let name: String
        public let process: Process
        public let log: URL
        init(name: String, process: Process, log: URL) {
            self.name = name
            self.process = process
            self.log = log
        }
        public var isRunning: Bool { process.isRunning }
        public var output: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }
    }

    let pidFile: URL
    let logDirectory: URL
    private let lock = NSLock()
    private var children: [Child] = []

    public init(pidFile: URL, logDirectory: URL) throws {
        self.pidFile = pidFile
        self.logDirectory = logDirectory
        try FileManager.default.createDirectory(at: logDirectory, withIntermediateDirectories: true)
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
            for line in lines.dropFirst() {
                guard let pid = Int32(line.trimmingCharacters(in: .whitespaces)), pid > 1, isLifeboat(pid) else { continue }
                if kill(pid, SIGKILL) == 0 { leftovers.processes += 1 }
            }
            leftovers.processes += signalMarked(mark(forPidFile: file), SIGKILL)
            let directory = scratchRoot.appendingPathComponent(String(name.dropLast(".pids".count)))
            leftovers.mounts += FaultFSMount.cleanStaleMounts(under: directory).count
            if FileManager.default.fileExists(atPath: directory.path), (try? FileManager.default.removeItem(at: directory)) != nil {
                leftovers.directories += 1
            }
            try? FileManager.default.removeItem(at: file)
        }
        return leftovers
    }

    static func isLifeboat(_ pid: Int32) -> Bool {
        guard kill(pid, 0) == 0, let cmdline = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8) else { return false }
        return cmdline.contains("lifeboat") || cmdline.contains("LifeboatPackageTests") || cmdline.contains("faultfs")
    }

    public func start(_ name: String, executable: URL, arguments: [String], environment: [String: String] = [:]) throws -> Child {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
            .merging([Self.markVariable: Self.mark(forPidFile: pidFile)]) { _, mark in mark }
        let log = logDirectory.appendingPathComponent("\(name).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw RunError.environment("cannot create \(log.path)")
        }
        let handle = try FileHandle(forWritingTo: log)
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try? handle.close()
        let child = Child(name: name, process: process, log: log)
        lock.withLock { children.append(child) }
        try? (([String(getpid())] + lock.withLock { children.map { String($0.process.processIdentifier) } }).joined(separator: "\n") + "\n")
            .write(to: pidFile, atomically: true, encoding: .utf8)
        return child
    }

    /// The name of the first child among `pids` (a caller and its ancestors), e.g. the backup step whose script's
    /// `cp` made a call.
    public func name(ofAny pids: [Int32]) -> String? {
        let known = lock.withLock { children.map { ($0.process.processIdentifier, $0.name) } }
        for pid in pids { if let match = known.first(where: { $0.0 == pid }) { return match.1 } }
        return nil
    }

    /// Waits for a child; kills it after `timeout` seconds. Returns its exit status (-9 when killed).
    public func wait(_ child: Child, timeout: Double) -> Int32 {
        let deadline = Date().addingTimeInterval(timeout)
        while child.process.isRunning {
            if Date() > deadline { kill(child.process.processIdentifier, SIGKILL) }
            usleep(5_000)
        }
        child.process.waitUntilExit()
        return child.process.terminationReason == .uncaughtSignal ? -child.process.terminationStatus : child.process.terminationStatus
    }

    /// SIGKILLs every child still running (a crash, or the end of a run) and reaps them; without a filter, every
    /// process the children started too (`ChildRegistry+Marks.swift`).
    public func killAll(_ filter: ((Child) -> Bool)? = nil) {
        let running = lock.withLock { children.filter { $0.isRunning && (filter?($0) ?? true) } }
        for child in running { kill(child.process.processIdentifier, SIGKILL) }
        if filter == nil { Self.signalMarked(Self.mark(forPidFile: pidFile), SIGKILL) }
        for child in running { child.process.waitUntilExit() }
    }

    /// SIGSTOPs every child still running: time stands still for the store's processes (a crash that is about
    /// to come must find them where they were, while the runner reads what it needs first).
    public func pauseAll() {
        let running = lock.withLock { children.filter { $0.isRunning } }
        for child in running { kill(child.process.processIdentifier, SIGSTOP) }
        Self.signalMarked(Self.mark(forPidFile: pidFile), SIGSTOP)
    }

    public func finish() {
        killAll()
        try? FileManager.default.removeItem(at: pidFile)
    }
}
