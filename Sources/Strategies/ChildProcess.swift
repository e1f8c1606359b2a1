import ChildProcesses
import Foundation

/// Runs a program in a child process through ChildProcesses (posix_spawn, its own process group so a timeout
/// kills what it started too), with extra environment, a timeout, and output captured in a file so a chatty
/// child cannot fill a pipe. The child inherits this process's environment, so a `command` program started by
/// a step child on a FaultFS volume keeps the sync shim the runner gave that step child.
public enum ChildProcess {
    public struct Result: Sendable {
        public var status: Int32
        public var output: String
        public var timedOut: Bool
    }

    public static func run(_ executable: URL, arguments: [String], environment: [String: String] = [:],
                           timeout: Double) throws -> Result {
        let spec = ChildSpec(name: executable.lastPathComponent, executable: executable.path, arguments: arguments,
                             environment: environment)
        let outcome: ChildProcesses.Outcome
        do {
            outcome = try ChildProcesses.run(spec, timeout: timeout)
        } catch {
            throw CommandError.cannotStart(executable.path, "\(error)")
        }
        let termination = outcome.termination
        return Result(status: termination.timedOut ? -1 : (termination.signal ?? termination.exitCode),
                      output: outcome.output, timedOut: termination.timedOut)
    }

    /// Runs a shell command line with `/bin/sh -c`.
    public static func shell(_ command: String, environment: [String: String], timeout: Double) throws -> Result {
        try run(URL(fileURLWithPath: "/bin/sh"), arguments: ["-c", command], environment: environment, timeout: timeout)
    }

    public static func findExecutable(_ name: String) -> URL? {
        ChildProcesses.which(name).map { URL(fileURLWithPath: $0) }
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
            "command `\(command)` exited with status \(status)\(output.isEmpty ? "" : ":\n" + OutputExcerpt.headAndTail(output))"
        }
    }
}
