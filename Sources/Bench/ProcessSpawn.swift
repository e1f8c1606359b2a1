#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization

/// Spawns a child with `posix_spawn` and reaps it with `wait4`, which hands back the child's own `rusage`:
/// its CPU time and peak resident set size, measured by the kernel rather than sampled. A multithreaded Swift
/// process must never fork(), so this is the only way the bench starts processes.
///
/// A catch: glibc's posix_spawn runs the child on the parent's address space (CLONE_VM|CLONE_VFORK) until it
/// execs, and exec folds the *old* address space's high-water mark into the child's `ru_maxrss`. So ru_maxrss
/// is never below the parent's own peak. The parent resets its peak to its current RSS before every spawn
/// (`/proc/self/clear_refs`, "5") and records that floor; children that can report their own VmHWM do.
public enum ProcessSpawn {
    /// What the kernel reported about one finished child.
    public struct Result: Sendable {
        public var exitCode: Int32
        /// The signal that killed the child, if one did.
        public var signal: Int32?
        public var wallSeconds: Double
        public var userSeconds: Double
        public var systemSeconds: Double
        /// `ru_maxrss` converted to bytes (Linux reports KiB).
        public var peakRSSBytes: Int64
        /// This process's resident set when it spawned the child: ru_maxrss cannot read lower than this.
        public var spawnFloorBytes: Int64?
        public var standardOutput: String
        public var standardError: String
        public var succeeded: Bool { signal == nil && exitCode == 0 }
    }

    /// The pid of the child being waited for, so an interrupt handler can stop it before cleaning up.
    static let current = Mutex<pid_t?>(nil)
    /// Set once an interrupt arrived: no new measured child may start.
    static let interrupted = Mutex(false)

    /// Stops starting children and signals the running one; the interrupt handler's first step.
    public static func interrupt() {
        interrupted.withLock { $0 = true }
        signalCurrentChild(SIGKILL)
    }

    /// Sends `signal` to the running child, if any.
    public static func signalCurrentChild(_ signal: Int32) {
        current.withLock { pid in if let pid { _ = kill(pid, signal) } }
    }

    /// Runs `executable` with `arguments`, stdin from /dev/null, stdout and stderr captured in temporary files
    /// (a pipe could fill and stall a chatty child), and waits for it.
    ///
    /// `track: false` is for the system tools that clean up after an interrupt: they must run even then.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           track: Bool = true) throws -> Result {
        if track, interrupted.withLock({ $0 }) { throw BenchError.environment("interrupted") }
        let scratch = FileManager.default.temporaryDirectory
        let tag = UUID().uuidString.prefix(8)
        let outPath = scratch.appendingPathComponent("lifeboat-spawn-\(tag).out").path
        let errPath = scratch.appendingPathComponent("lifeboat-spawn-\(tag).err").path
        defer { unlink(outPath); unlink(errPath) }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)

        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
        let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { for pointer in argv + envp { free(pointer) } }

        let floor = Self.resetOwnHighWater()
        var pid = pid_t()
        let started = DispatchTime.now().uptimeNanoseconds
        let spawned = posix_spawn(&pid, executable, &actions, nil, argv, envp)
        guard spawned == 0 else {
            throw BenchError.environment("cannot start \(executable): \(String(cString: strerror(spawned)))")
        }
        if track { current.withLock { $0 = pid } }
        var status: Int32 = 0
        var usage = rusage()
        while wait4(pid, &status, 0, &usage) < 0 {
            guard errno == EINTR else {
                if track { current.withLock { $0 = nil } }
                throw BenchError.environment("wait4 \(pid): \(String(cString: strerror(errno)))")
            }
        }
        let ended = DispatchTime.now().uptimeNanoseconds
        if track { current.withLock { $0 = nil } }

        let termination = status & 0x7f
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        return Result(
            exitCode: termination == 0 ? (status >> 8) & 0xff : 128 + termination,
            signal: termination == 0 ? nil : termination,
            wallSeconds: Double(ended - started) / 1e9,
            userSeconds: seconds(usage.ru_utime),
            systemSeconds: seconds(usage.ru_stime),
            peakRSSBytes: Int64(usage.ru_maxrss) * Self.maxRSSUnit,
            spawnFloorBytes: floor,
            standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
    }

    /// Resets this process's peak RSS to its current RSS and returns that (nil where Linux's knobs are missing).
    static func resetOwnHighWater() -> Int64? {
        #if os(Linux)
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        if fd >= 0 {
            _ = "5".withCString { write(fd, $0, 1) }
            close(fd)
        }
        #endif
        return ProcStatus.current("VmRSS")
    }

    /// `ru_maxrss` is in KiB on Linux and in bytes on Darwin.
    static var maxRSSUnit: Int64 {
        #if os(Linux)
        1024
        #else
        1
        #endif
    }

    /// This executable's path, for spawning itself as the bench child.
    public static func currentExecutable() -> String {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return CommandLine.arguments[0]
    }

    /// The first executable called `name` on PATH.
    public static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/sbin:/usr/bin:/sbin:/bin"
        for directory in path.split(separator: ":") + ["/usr/local/bin", "/usr/bin", "/bin", "/usr/sbin", "/sbin"] {
            let candidate = "\(directory)/\(name)"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}

/// Errors of the bench: bad input (exit 2) or an environment that cannot run it (exit 2 as well).
public enum BenchError: Error, CustomStringConvertible, Equatable {
    case badInput(String)
    case environment(String)
    case childFailed(String)

    public var description: String {
        switch self {
        case .badInput(let message), .environment(let message): message
        case .childFailed(let message): message
        }
    }
}
