import ChildProcesses
import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A running FaultFS mount, for tests and the scenario runner. `start` spawns the `faultfs` daemon
/// (posix_spawn) and returns once the mount is live; every other call is synchronous and returns after
/// the daemon acknowledged it. `unmount()` always leaves no mount behind (and runs on deinit).
public final class FaultFSMount: Sendable {
    public let backing: URL
    public let mountpoint: URL
    public let controlSocket: URL
    public let log: URL?
    /// Where the daemon's stdout/stderr go.
    public let daemonOutput: URL
    public let pid: Int32
    /// The daemon process (started and reaped through ChildProcesses).
    let daemon: SpawnedChild
    public let client: ControlClient
    private let finished = Mutex(false)

    private init(backing: URL, mountpoint: URL, controlSocket: URL, log: URL?, daemonOutput: URL, daemon: SpawnedChild) {
        self.backing = backing
        self.mountpoint = mountpoint
        self.controlSocket = controlSocket
        self.log = log
        self.daemonOutput = daemonOutput
        self.daemon = daemon
        self.pid = daemon.pid
        self.client = ControlClient(socketPath: controlSocket.path)
    }

    deinit { unmount() }

    /// Spawns the daemon and waits (up to `timeout` seconds) until it answers ping and the mount shows in
    /// /proc/mounts. Cleans stale mounts under `mountpoint` first. Throws with the daemon's output on failure.
    /// The daemon shuts itself down cleanly if this process dies without calling `unmount()`.
    public static func start(backing: URL, mountpoint: URL, executable: URL? = nil, seed: UInt64 = 0,
                             log: URL? = nil, logData: Bool = false, controlSocket: URL? = nil,
                             timeout: Double = 20, extraArguments: [String] = []) throws -> FaultFSMount {
        let exe = try locateExecutable(executable)
        cleanStaleMounts(under: mountpoint)
        let mnt = StaleMounts.canonical(mountpoint.path)
        var socket = controlSocket?.path ?? mnt + ".ctl"
        if socket.utf8.count > UnixSocket.maxPathLength {
            socket = "/tmp/faultfs-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).ctl"
        }
        let output = URL(fileURLWithPath: mnt + ".daemon.log")
        var args = ["mount", backing.path, mountpoint.path, "--control", socket, "--seed", String(seed), "--exit-with-parent"]
        if let log { args += ["--log", log.path] }
        if logData { args.append("--log-data") }
        args += extraArguments
        let daemon: SpawnedChild
        do {
            daemon = try SpawnedChild.start(ChildSpec(name: "faultfs", executable: exe.path, arguments: args,
                                                      output: .file(output.path, append: true)))
        } catch {
            throw FaultFSError.launch(error.description)
        }
        let mount = FaultFSMount(backing: backing, mountpoint: mountpoint, controlSocket: URL(fileURLWithPath: socket),
                                 log: log, daemonOutput: output, daemon: daemon)
        let deadline = monotonicSeconds() + timeout
        while monotonicSeconds() < deadline {
            if !daemon.isRunning {
                mount.finished.withLock { $0 = true }
                let out = (try? String(contentsOf: output, encoding: .utf8)) ?? ""
                throw FaultFSError.launch("faultfs daemon exited during start: \(out)")
            }
            if (try? mount.client.call(ControlRequest(verb: .ping))) != nil, StaleMounts.isMounted(mnt) {
                return mount
            }
            usleep(20_000)
        }
        mount.unmount()
        throw FaultFSError.launch("faultfs mount on \(mnt) not live after \(timeout) s")
    }

    /// Finds the `faultfs` executable: the argument, $LIFEBOAT_FAULTFS, next to the running executable,
    /// or the package's build directory under the current directory.
    public static func locateExecutable(_ explicit: URL? = nil) throws -> URL {
        func usable(_ p: String) -> Bool {
            var st = stat()
            return stat(p, &st) == 0 && isRegular(st) && access(p, X_OK) == 0
        }
        if let explicit {
            guard usable(explicit.path) else { throw FaultFSError.launch("faultfs executable not found at \(explicit.path)") }
            return explicit
        }
        if let env = ProcessInfo.processInfo.environment["LIFEBOAT_FAULTFS"], !env.isEmpty {
            guard usable(env) else { throw FaultFSError.launch("LIFEBOAT_FAULTFS=\(env) is not an executable file") }
            return URL(fileURLWithPath: env)
        }
        var candidates: [String] = []
        if let exe = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            candidates.append((exe as NSString).deletingLastPathComponent + "/faultfs")
        }
        let cwd = FileManager.default.currentDirectoryPath
        for config in ["debug", "release"] {
            candidates.append("\(cwd)/.build/\(config)/faultfs")
            candidates.append("\(cwd)/.build/x86_64-unknown-linux-gnu/\(config)/faultfs")
            candidates.append("\(cwd)/.build/aarch64-unknown-linux-gnu/\(config)/faultfs")
        }
        if let found = candidates.first(where: usable) { return URL(fileURLWithPath: found) }
        throw FaultFSError.launch("faultfs executable not found (looked in \(candidates.joined(separator: ", "))); "
            + "build it with `swift build --product faultfs` or set LIFEBOAT_FAULTFS")
    }

    /// Lazily unmounts every FUSE mount at or below `url` (dead ones included). Returns what was cleared.
    @discardableResult
    public static func cleanStaleMounts(under url: URL) -> [String] { StaleMounts.clean(under: url.path) }

    /// Whether the mount is in /proc/mounts.
    public var isMounted: Bool { StaleMounts.isMounted(mountpoint.path) }

    // MARK: Control verbs

    public func ping() throws { try client.call(ControlRequest(verb: .ping)) }

    /// Arms a rule; returns its id.
    @discardableResult
    public func arm(_ rule: FaultRule) throws -> String {
        guard let id = try client.call(ControlRequest(verb: .arm, rule: rule)).id else {
            throw FaultFSError.control("arm reply without id")
        }
        return id
    }

    public func disarm(_ id: String) throws { try client.call(ControlRequest(verb: .disarm, id: id)) }

    public func clearRules() throws { try client.call(ControlRequest(verb: .clear)) }

    /// Lets the calls a `hold` rule holds go on; returns how many there were.
    @discardableResult
    public func release(_ id: String) throws -> Int { try client.call(ControlRequest(verb: .release, id: id)).released ?? 0 }

    public func rules() throws -> [RuleStatus] { try client.call(ControlRequest(verb: .rules)).rules ?? [] }

    @discardableResult
    public func crash(_ mode: CrashMode) throws -> CrashReport {
        guard let r = try client.call(.crash(mode)).crash else { throw FaultFSError.control("crash reply without report") }
        return r
    }

    /// Makes everything durable; returns how many pending ops were settled.
    @discardableResult
    public func syncAll() throws -> Int { try client.call(ControlRequest(verb: .syncAll)).synced ?? 0 }

    public func status() throws -> StatusReport {
        guard let s = try client.call(ControlRequest(verb: .status)).status else { throw FaultFSError.control("status reply without body") }
        return s
    }

    /// Ran/matched/fired per op and file class since the mount, persistence points and crashes; and whether a
    /// `crash` rule froze the volume (a crash is due).
    public func coverage() throws -> (coverage: FaultCoverage, frozen: Bool) {
        let reply = try client.call(ControlRequest(verb: .coverage))
        guard let coverage = reply.coverage else { throw FaultFSError.control("coverage reply without body") }
        return (coverage, reply.frozen ?? false)
    }

    /// Sets the simulated disk's tear guarantees (sector, atomic unit, powersafe overwrite) for later crashes.
    public func setDevice(_ device: DeviceProfile) throws {
        var request = ControlRequest(verb: .device)
        request.device = device
        try client.call(request)
    }

    /// Sets what an fsync failed with EIO leaves in the file (`FsyncFailure`; nil: the data stays pending).
    public func setFsyncFailure(_ semantics: FsyncFailure?) throws {
        var request = ControlRequest(verb: .fsyncFailure)
        request.fsyncFailure = FsyncFailureSetting(semantics)
        try client.call(request)
    }

    /// Inserts a marker record in the op log; returns its seq.
    @discardableResult
    public func logMark(_ label: String) throws -> UInt64 {
        try client.call(ControlRequest(verb: .logMark, label: label)).seq ?? 0
    }

    /// Stops the daemon and makes sure nothing stays mounted: shutdown verb, wait; then fusermount3 -u,
    /// lazy unmount and SIGKILL as fallbacks. Idempotent, never throws.
    public func unmount() {
        let already = finished.withLock { f -> Bool in
            defer { f = true }
            return f
        }
        if already { return }
        let mnt = mountpoint.path
        _ = try? client.send(ControlRequest(verb: .shutdown))
        if !waitForExit(seconds: 10) {
            if StaleMounts.isMounted(mnt) { StaleMounts.fusermount(["-u", mnt]) }
            if !waitForExit(seconds: 3) {
                daemon.signal(SIGKILL)
                _ = waitForExit(seconds: 5)
            }
        }
        StaleMounts.clean(under: mnt)
        unlink(controlSocket.path)
    }

    /// True once the daemon has exited (and been reaped).
    public var daemonExited: Bool { !daemon.isRunning }

    private func waitForExit(seconds: Double) -> Bool {
        let deadline = monotonicSeconds() + seconds
        while monotonicSeconds() < deadline {
            if !daemon.isRunning { return true }
            usleep(10_000)
        }
        return false
    }
}
