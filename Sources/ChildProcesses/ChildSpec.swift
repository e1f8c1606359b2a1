/// What to start: the one description every part of Lifeboat uses for a child process (writers, backup and
/// restore steps, `command` programs, sidecars, bench rounds, the FaultFS daemon, system tools).
///
/// Why a module of our own rather than Foundation's `Process` or swift-subprocess 1.0.2: the four callers need,
/// together, a child that starts with an empty signal mask and default handlers (dispatch worker threads block
/// most signals and a child inherits that mask, so SIGTERM would never reach it), stdout/stderr straight into
/// files (a pipe fills and stalls a chatty child; the run directory keeps the whole output), its own process
/// group (a crash must kill a backup script's grandchildren too, and SIGSTOP must freeze them), the child's own
/// `rusage` from `wait4` (the bench's CPU time and peak RSS), a wait that can be cut short by a deadline or by an
/// interrupt flag, and a synchronous API usable from FaultFS's non-async code. Foundation's `Process` has no
/// signal mask, process group or rusage; swift-subprocess 1.0.2 is async-only (FaultFS's mount and the
/// runner's loops are synchronous) and reaps its children itself, handing back a termination status but not
/// the child's `rusage` the bench measures. This module is posix_spawn (never fork: the harness is
/// multithreaded) plus `wait4`, about 250 lines.
public struct ChildSpec: Sendable {
    /// Where the child's standard output and error go. Standard input is always /dev/null.
    public enum Output: Sendable, Equatable {
        /// Both to /dev/null.
        case discard
        /// Both to one file, created if needed; truncated unless `append`.
        case file(String, append: Bool = false)
        /// Standard output and standard error to two files (truncated).
        case files(stdout: String, stderr: String)
    }

    /// A short name for logs and pid files (`writer-1`, `backup-0`, `sidecar-icloud`).
    public var name: String
    /// Absolute path of the program.
    public var executable: String
    public var arguments: [String]
    /// Variables set (or replaced) on top of this process's environment.
    public var environment: [String: String]
    public var output: Output
    /// The child leads a new process group, so `signal(_:)` reaches its descendants too.
    public var ownProcessGroup: Bool
    /// Set when the child works on a FaultFS volume: its sync(2)/syncfs(2) then reach FaultFS (see `SyncShim`).
    public var syncShim: SyncShim?

    public init(name: String, executable: String, arguments: [String] = [], environment: [String: String] = [:],
                output: Output = .discard, ownProcessGroup: Bool = false, syncShim: SyncShim? = nil) {
        self.name = name
        self.executable = executable
        self.arguments = arguments
        self.environment = environment
        self.output = output
        self.ownProcessGroup = ownProcessGroup
        self.syncShim = syncShim
    }
}
