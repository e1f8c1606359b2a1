#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import ChildProcesses
import Foundation
import Synchronization

/// Spawns a child through ChildProcesses (`posix_spawn`) and reaps it with `wait4`, which hands back the child's own `rusage`:
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
        /// The child's resident set while it ran (`sampleMemory` only).
        public var memorySamples: [MemorySample] = []
        public var succeeded: Bool { signal == nil && exitCode == 0 }
    }

    /// The child being waited for, so an interrupt handler can stop it before cleaning up.
    static let current = Mutex<SpawnedChild?>(nil)
    /// Set once an interrupt arrived: no new measured child may start.
    static let interrupted = Mutex(false)

    /// Stops starting children and signals the running one; the interrupt handler's first step.
    public static func interrupt() {
        interrupted.withLock { $0 = true }
        signalCurrentChild(SIGKILL)
    }

    /// Sends `signal` to the running child, if any.
    public static func signalCurrentChild(_ signal: Int32) {
        current.withLock { child in _ = child?.signal(signal) }
    }

    /// Runs `executable` with `arguments` through ChildProcesses, stdin from /dev/null, stdout and stderr
    /// captured in temporary files (a pipe could fill and stall a chatty child), and waits for it in the kernel
    /// (`wait4`, so wall time and rusage are exact).
    ///
    /// `track: false` is for the system tools that clean up after an interrupt: they must run even then.
    public static func run(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                           track: Bool = true, sampleMemory: Bool = false) throws -> Result {
        if track, interrupted.withLock({ $0 }) { throw BenchError.environment("interrupted") }
        let scratch = FileManager.default.temporaryDirectory
        let tag = UUID().uuidString.prefix(8)
        let outPath = scratch.appendingPathComponent("lifeboat-spawn-\(tag).out").path
        let errPath = scratch.appendingPathComponent("lifeboat-spawn-\(tag).err").path
        defer { unlink(outPath); unlink(errPath) }

        let floor = Self.resetOwnHighWater()
        let child: SpawnedChild
        do {
            child = try SpawnedChild.start(ChildSpec(name: URL(fileURLWithPath: executable).lastPathComponent, executable: executable,
                                                     arguments: arguments, environment: environment,
                                                     output: .files(stdout: outPath, stderr: errPath)))
        } catch {
            throw BenchError.environment(error.description)
        }
        if track { current.withLock { $0 = child } }
        let sampler = sampleMemory ? MemorySampler(pid: child.pid) : nil
        let termination = child.wait()
        let samples = sampler?.stop() ?? []
        if track { current.withLock { $0 = nil } }
        var result = Result(
            exitCode: termination.exitCode,
            signal: termination.signal,
            wallSeconds: termination.wallSeconds,
            userSeconds: termination.userSeconds,
            systemSeconds: termination.systemSeconds,
            peakRSSBytes: termination.peakRSSBytes,
            spawnFloorBytes: floor,
            standardOutput: (try? String(contentsOfFile: outPath, encoding: .utf8)) ?? "",
            standardError: (try? String(contentsOfFile: errPath, encoding: .utf8)) ?? "")
        result.memorySamples = samples
        return result
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

    /// This executable's path, for spawning itself as the bench child.
    public static func currentExecutable() -> String {
        #if os(Linux)
        if let resolved = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") { return resolved }
        #endif
        return CommandLine.arguments[0]
    }

    /// The first executable called `name` on PATH (then the system directories).
    public static func which(_ name: String) -> String? { ChildProcesses.which(name) }
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
