import Foundation

/// Runs a program in a child process (posix_spawn through Foundation's Process: never fork a threaded process),
/// with extra environment, a timeout, and output captured in a file so a chatty child cannot fill a pipe.
public enum ChildProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var timedOut: Bool
    }

    public static func run(_ executable: URL, arguments: [String], environment: [String: String] = [:],
                           timeout: Double) throws -> Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new }
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-child-\(UUID().uuidString).log")
        guard FileManager.default.createFile(atPath: log.path, contents: nil) else {
            throw CommandError.cannotStart(executable.path, "cannot create \(log.path)")
        }
        defer { try? FileManager.default.removeItem(at: log) }
        let handle = try FileHandle(forWritingTo: log)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = handle
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw CommandError.cannotStart(executable.path, "\(error)")
        }
        let deadline = Date().addingTimeInterval(timeout)
        var timedOut = false
        while process.isRunning {
            if Date() > deadline {
                timedOut = true
                kill(process.processIdentifier, SIGKILL)
                break
            }
            usleep(5_000)
        }
        process.waitUntilExit()
        let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return Result(status: timedOut ? -1 : process.terminationStatus, output: output, timedOut: timedOut)
    }

    /// Runs a shell command line with `/bin/sh -c`.
    public static func shell(_ command: String, environment: [String: String], timeout: Double) throws -> Result {
        try run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command], environment: environment, timeout: timeout)
    }

    public static func findExecutable(_ name: String) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(directory)).appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        return nil
    }
}

public enum CommandError: Error, CustomStringConvertible {
    case cannotStart(String, String)
    case missingCommand(String)
    case failed(String, Int32, String)

    public var description: String {
        switch self {
        case .cannotStart(let path, let reason): "cannot start \(path): \(reason)"
        case .missingCommand(let strategy): "strategy \(strategy) needs a command (--command or `command:` in the scenario)"
        case .failed(let command, let status, let output):
            "command `\(command)` exited with status \(status)\(output.isEmpty ? "" : ": " + String(output.suffix(500)))"
        }
    }
}
