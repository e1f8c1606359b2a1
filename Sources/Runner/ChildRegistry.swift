import Foundation

/// Child processes of a run (writers, backup and restore steps), started with posix_spawn through Foundation's
/// Process, their output in log files, and a pid file so a runner killed with SIGKILL has its orphans removed by
/// the next run.
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
    }

    /// Kills processes listed in a pid file left by an earlier runner, if they are still Lifeboat's.
    public static func reapOrphans(pidFile: URL) -> Int {
        guard let text = try? String(contentsOf: pidFile, encoding: .utf8) else { return 0 }
        var killed = 0
        for line in text.split(separator: "\n") {
            guard let pid = Int32(line.trimmingCharacters(in: .whitespaces)), pid > 1,
                  let cmdline = try? String(contentsOfFile: "/proc/\(pid)/cmdline", encoding: .utf8),
                  cmdline.contains("lifeboat") else { continue }
            if kill(pid, SIGKILL) == 0 { killed += 1 }
        }
        try? FileManager.default.removeItem(at: pidFile)
        return killed
    }

    public func start(_ name: String, executable: URL, arguments: [String], environment: [String: String] = [:]) throws -> Child {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        }
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
        try? (lock.withLock { children.map { String($0.process.processIdentifier) } }.joined(separator: "\n") + "\n")
            .write(to: pidFile, atomically: true, encoding: .utf8)
        return child
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

    /// SIGKILLs every child still running (a crash, or the end of a run) and reaps them.
    public func killAll(_ filter: (Child) -> Bool = { _ in true }) {
        let running = lock.withLock { children.filter { $0.isRunning && filter($0) } }
        for child in running { kill(child.process.processIdentifier, SIGKILL) }
        for child in running { child.process.waitUntilExit() }
    }

    public func finish() {
        killAll()
        try? FileManager.default.removeItem(at: pidFile)
    }
}
