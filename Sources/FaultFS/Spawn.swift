#if canImport(Glibc)
import Glibc
#endif

/// Starting child processes with posix_spawn (never fork(): this process is multithreaded).
enum Spawn {
    /// Starts `executable` with `arguments`; stdout and stderr go to `outputPath` (appended) or /dev/null.
    static func start(_ executable: String, _ arguments: [String], outputPath: String? = nil) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        let out = outputPath ?? "/dev/null"
        posix_spawn_file_actions_addopen(&actions, 1, out, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        // The caller may be a thread with signals blocked (dispatch workers block most): the child starts
        // with an empty mask and default handlers, or SIGTERM would never reach it.
        var attr = posix_spawnattr_t()
        posix_spawnattr_init(&attr)
        defer { posix_spawnattr_destroy(&attr) }
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attr, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for sig in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, sig) }
        posix_spawnattr_setsigdefault(&attr, &defaults)
        posix_spawnattr_setflags(&attr, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        defer { for p in argv { free(p) } }
        var pid: pid_t = 0
        let r = argv.withUnsafeBufferPointer { posix_spawn(&pid, executable, &actions, &attr, $0.baseAddress!, environ) }
        if r != 0 { throw FaultFSError.launch("cannot start \(executable): \(String(cString: strerror(r)))") }
        return pid
    }

    /// Runs a command to completion; returns its exit status (or -1 if it could not start or was killed).
    @discardableResult
    static func run(_ executable: String, _ arguments: [String]) -> Int32 {
        guard let pid = try? start(executable, arguments) else { return -1 }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : -1
    }

    /// Non-blocking check: true once the child has exited (and is reaped).
    static func hasExited(_ pid: pid_t) -> Bool {
        var status: Int32 = 0
        let r = waitpid(pid, &status, WNOHANG)
        return r == pid || (r < 0 && errno == ECHILD)
    }
}
