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
        /// Set when the shell could not run the program at all (status 126 or 127): `EnvironmentFailure`'s reason.
        public var environmentFailure: String?

        /// Throws unless the command succeeded: `CommandError.environment` when nothing of it ran,
        /// `CommandError.failed` when it ran and failed (the program's own failure).
        public func check(_ command: String) throws {
            if let environmentFailure { throw CommandError.environment("`\(command)`: \(environmentFailure)") }
            guard status == 0 else { throw CommandError.failed(command, status, output) }
        }
    }

    public static func run(_ executable: URL, arguments: [String], environment: [String: String] = [:],
                           timeout: Double) throws -> Result {
        let spec = ChildSpec(name: executable.lastPathComponent, executable: executable.path, arguments: arguments,
                             environment: environment)
        let outcome: ChildProcesses.Outcome
        do {
            outcome = try ChildProcesses.run(spec, timeout: timeout)
        } catch {
            throw CommandError.environment("cannot start \(executable.path): \(error)")
        }
        let termination = outcome.termination
        return Result(status: termination.timedOut ? -1 : (termination.signal ?? termination.exitCode),
                      output: outcome.output, timedOut: termination.timedOut,
                      environmentFailure: termination.timedOut || termination.stopped ? nil
                          : EnvironmentFailure.reason(exitCode: termination.exitCode, signal: termination.signal, output: outcome.output))
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
    /// Nothing of the program ran (not found, not executable, no exec): an environment error, never a finding.
    case environment(String)
    case missingCommand(String)
    case failed(String, Int32, String)

    public var description: String {
        switch self {
        case .environment(let reason): reason
        case .missingCommand(let strategy): "strategy \(strategy) needs a command (--command or `command:` in the scenario)"
        case .failed(let command, let status, let output):
            "command `\(command)` exited with status \(status)\(output.isEmpty ? "" : ":\n" + OutputExcerpt.headAndTail(output))"
        }
    }
}

/// What `lifeboat backup/restore --json` prints instead of a `StrategyOutcome` when the operation could not
/// run its program at all (`CommandError.environment`), so the scenario runner tells an environment error of a
/// step from the step's own failure without reading its prose.
public struct EnvironmentFailureLine: Codable, Sendable {
    public var environmentError: String
    public init(environmentError: String) { self.environmentError = environmentError }
}
