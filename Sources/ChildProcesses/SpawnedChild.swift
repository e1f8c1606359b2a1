#if canImport(Glibc)
import Glibc
#endif
import CLifeboatSys
import Foundation
import Synchronization

/// A started child. Every signal and every reap goes through one lock, so a signal can never reach a reused
/// pid (pid_max is often 32768: pids come round quickly on a busy machine): once reaped, the child is never
/// signalled again. A child that leads its own process group takes the group with it: when the leader has
/// exited, and before it is reaped (while its pid still names the group), what is left in the group is
/// SIGKILLed, so a backup script's background processes cannot outlive its step and touch the store later.
public final class SpawnedChild: Sendable {
    public let spec: ChildSpec
    public let pid: pid_t
    private let started: UInt64
    private let ended = Mutex<Termination?>(nil)

    public var name: String { spec.name }

    /// Starts `spec` with posix_spawn: empty signal mask, default actions for the signals a harness sends,
    /// stdin from /dev/null, output as the spec says, no other descriptor of the harness, and the sync shim's environment when it has one.
    public static func start(_ spec: ChildSpec) throws(SpawnError) -> SpawnedChild {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        switch spec.output {
        case .discard:
            posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .file(let path, let append):
            posix_spawn_file_actions_addopen(&actions, 1, path, O_WRONLY | O_CREAT | (append ? O_APPEND : O_TRUNC), 0o644)
            posix_spawn_file_actions_adddup2(&actions, 1, 2)
        case .files(let stdout, let stderr):
            posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
            posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        }
        // Nothing else of the harness goes with the child: a descriptor another thread has open without
        // O_CLOEXEC (a script being written, a report, a FaultFS file) would otherwise stay open in the child for
        // its whole life, so a freshly written script failed to run with ETXTBSY while a long child held it open
        // for writing, and a child could keep a file on a volume the harness is about to unmount.
        lb_spawn_closefrom(&actions, 3)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE, SIGQUIT, SIGCHLD] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if spec.ownProcessGroup {
            flags |= POSIX_SPAWN_SETPGROUP
            posix_spawnattr_setpgroup(&attributes, 0)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        var environment = ProcessInfo.processInfo.environment.merging(spec.environment) { _, new in new }
        if let shim = spec.syncShim { environment = shim.environment(over: environment) }
        let argv: [UnsafeMutablePointer<CChar>?] = ([spec.executable] + spec.arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        var pid = pid_t()
        let started = DispatchTime.now().uptimeNanoseconds
        let result = posix_spawn(&pid, spec.executable, &actions, &attributes, argv, envp)
        guard result == 0 else { throw SpawnError(executable: spec.executable, errno: result) }
        return SpawnedChild(spec: spec, pid: pid, started: started)
    }

    private init(spec: ChildSpec, pid: pid_t, started: UInt64) {
        self.spec = spec
        self.pid = pid
        self.started = started
    }

    /// How it ended, once it has been reaped (by `poll`, `isRunning` or `wait`).
    public var termination: Termination? { ended.withLock { $0 } }

    /// Reaps the child if it has ended, without blocking.
    @discardableResult
    public func poll() -> Termination? {
        ended.withLock { ended in
            if ended == nil { ended = reap(blocking: false, timedOut: false, stopped: false) }
            return ended
        }
    }

    public var isRunning: Bool { poll() == nil }

    /// Sends `signal` to the child (to its whole group when it leads one). False when it is gone.
    @discardableResult
    public func signal(_ number: Int32) -> Bool {
        ended.withLock { ended in
            guard ended == nil else { return false }
            if spec.ownProcessGroup, kill(-pid, number) == 0 { return true }
            return kill(pid, number) == 0
        }
    }

    /// Waits until the child ends. With a `timeout` (seconds) or a `stop` condition (checked every few
    /// milliseconds, e.g. "SIGINT arrived"), the child (and its group) is SIGKILLed when either comes first, and
    /// the termination says which. Without either it blocks in the kernel, so the bench's wall time is exact.
    @discardableResult
    public func wait(timeout: Double? = nil, stop: (() -> Bool)? = nil) -> Termination {
        if timeout == nil, stop == nil {
            // Wait for the exit without reaping (WNOWAIT) and without the lock, so a concurrent `signal` (an
            // interrupt handler) still reaches the child meanwhile.
            var info = siginfo_t()
            while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0, errno == EINTR {}
            return reapBlocking(timedOut: false, stopped: false)
        }
        let deadline = timeout.map { DispatchTime.now().uptimeNanoseconds &+ UInt64(max(0, min($0, 1e9)) * 1e9) }
        var backoff = PollBackoff(first: 200, maximum: 5_000)
        while true {
            if let done = poll() { return done }
            if let deadline, DispatchTime.now().uptimeNanoseconds >= deadline {
                signal(SIGKILL)
                return reapBlocking(timedOut: true, stopped: false)
            }
            if let stop, stop() {
                signal(SIGKILL)
                return reapBlocking(timedOut: false, stopped: true)
            }
            backoff.wait()
        }
    }

    private func reapBlocking(timedOut: Bool, stopped: Bool) -> Termination {
        ended.withLock { ended in
            if let ended { return ended }
            while true {
                if let result = reap(blocking: true, timedOut: timedOut, stopped: stopped) {
                    ended = result
                    return result
                }
            }
        }
    }

    /// Reaps the child if it has exited (waits for that when `blocking`); nil while it runs. The exit is seen
    /// first without reaping (WNOWAIT), so the leader's pid still names its group when the group's leftovers
    /// are killed; then `wait4` reaps it and hands back its rusage. A child that cannot be waited for (ECHILD:
    /// something else reaped it) counts as ended with status 0 rather than being waited for forever.
    private func reap(blocking: Bool, timedOut: Bool, stopped: Bool) -> Termination? {
        var info = siginfo_t()
        let seen = waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT | (blocking ? 0 : WNOHANG))
        if seen < 0 {
            if errno == ECHILD { return Termination(status: 0, usage: rusage(), wallSeconds: 0, timedOut: timedOut, stopped: stopped) }
            return nil
        }
        guard info.si_signo == SIGCHLD else { return nil }
        if spec.ownProcessGroup { kill(-pid, SIGKILL) }
        var status: Int32 = 0
        var usage = rusage()
        var result = wait4(pid, &status, 0, &usage)
        while result < 0, errno == EINTR { result = wait4(pid, &status, 0, &usage) }
        guard result == pid else { return Termination(status: 0, usage: rusage(), wallSeconds: 0, timedOut: timedOut, stopped: stopped) }
        let wall = Double(DispatchTime.now().uptimeNanoseconds &- started) / 1e9
        return Termination(status: status, usage: usage, wallSeconds: wall, timedOut: timedOut, stopped: stopped)
    }
}

/// posix_spawn failed: the program is missing, not executable, or the system is out of processes.
public struct SpawnError: Error, CustomStringConvertible, Sendable {
    public var executable: String
    public var errno: Int32
    public var description: String { "cannot start \(executable): \(String(cString: strerror(errno)))" }
}
