import Foundation
import Synchronization

/// A throwaway XFS file system with reflinks (`mkfs.xfs -m reflink=1`) on a sparse image and a loop device, so
/// `replace` can clone with FICLONE, the Linux analogue of the APFS clones Core Data uses on a Mac.
///
/// Every volume is named after the process that made it (`lifeboat-bench-xfs-<pid>-<n>`), so a later run can find
/// and remove what a killed run left mounted. `remove()` is idempotent and is also what the interrupt handler
/// calls.
public final class ReflinkVolume: Sendable {
    public static let prefix = "lifeboat-bench-xfs-"
    /// Numbers the volumes one process makes, so two at once (parallel tests) do not collide.
    private static let serial = Mutex(0)
    public let image: URL
    public let mountPoint: URL
    public let device: String

    private init(image: URL, mountPoint: URL, device: String) {
        self.image = image
        self.mountPoint = mountPoint
        self.device = device
    }

    /// Creates a sparse image of `bytes`, attaches it, formats it with reflinks and mounts it.
    public static func create(bytes: Int64, in directory: URL = URL(fileURLWithPath: "/tmp"),
                              log: (String) -> Void = { _ in }) throws -> ReflinkVolume {
        guard getuid() == 0 else { throw BenchError.environment("--volume xfs-reflink needs root (mount, losetup)") }
        guard let mkfs = ProcessSpawn.which("mkfs.xfs") else {
            throw BenchError.environment("--volume xfs-reflink needs mkfs.xfs: apt-get install xfsprogs (scripts/setup.sh installs it)")
        }
        removeStale(in: directory, log: log)
        let name = "\(prefix)\(getpid())-\(serial.withLock { value in value += 1; return value })"
        let image = directory.appendingPathComponent(name + ".img")
        let mountPoint = directory.appendingPathComponent(name + ".mnt", isDirectory: true)
        guard FileManager.default.createFile(atPath: image.path, contents: nil), truncate(image.path, off_t(bytes)) == 0 else {
            throw BenchError.environment("cannot create sparse image \(image.path): \(String(cString: strerror(errno)))")
        }
        var device = ""
        do {
            device = try tool("losetup", ["--find", "--show", image.path]).trimmingCharacters(in: .whitespacesAndNewlines)
            _ = try tool(mkfs, ["-q", "-f", "-m", "reflink=1", device])
            try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
            _ = try tool("mount", [device, mountPoint.path])
        } catch {
            ReflinkVolume(image: image, mountPoint: mountPoint, device: device).remove()
            throw error
        }
        log("mounted XFS (reflink=1) \(device) at \(mountPoint.path), sparse image \(ByteCount.format(bytes))")
        return ReflinkVolume(image: image, mountPoint: mountPoint, device: device)
    }

    /// Unmounts, detaches the loop device and deletes the image and mount point; safe to call twice.
    public func remove() {
        Self.teardown(image: image, mountPoint: mountPoint, device: device.isEmpty ? nil : device)
    }

    /// Removes volumes whose creating process is gone (a run killed with SIGKILL cannot clean up after itself).
    public static func removeStale(in directory: URL = URL(fileURLWithPath: "/tmp"), log: (String) -> Void = { _ in }) {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
        var bases = Set<String>()
        for name in names where name.hasPrefix(prefix) && (name.hasSuffix(".img") || name.hasSuffix(".mnt")) {
            bases.insert(String(name.dropLast(4)))
        }
        for base in bases.sorted() {
            guard let pid = Int32(base.dropFirst(prefix.count).prefix { $0.isNumber }), pid != getpid(),
                  kill(pid, 0) != 0, errno == ESRCH else { continue }
            log("removing stale bench volume \(base) of process \(pid)")
            teardown(image: directory.appendingPathComponent(base + ".img"),
                     mountPoint: directory.appendingPathComponent(base + ".mnt", isDirectory: true), device: nil)
        }
    }

    static func teardown(image: URL, mountPoint: URL, device: String?) {
        if isMounted(mountPoint) {
            var unmounted = false
            for attempt in 0..<5 where !unmounted {
                if attempt > 0 { usleep(200_000) }
                unmounted = (try? tool("umount", [mountPoint.path])) != nil
            }
            if !unmounted { _ = try? tool("umount", ["-l", mountPoint.path]) }
        }
        var devices = Set<String>()
        if let device { devices.insert(device) }
        // Every loop device still backed by the image (`losetup -j` prints "/dev/loopN: [...]: ...").
        if let listing = try? tool("losetup", ["-j", image.path]) {
            for line in listing.split(separator: "\n") {
                if let device = line.split(separator: ":").first { devices.insert(String(device)) }
            }
        }
        for device in devices { _ = try? tool("losetup", ["-d", device]) }
        try? FileManager.default.removeItem(at: image)
        rmdir(mountPoint.path)
    }

    static func isMounted(_ mountPoint: URL) -> Bool {
        guard let mounts = try? String(contentsOfFile: "/proc/mounts", encoding: .utf8) else { return false }
        let path = mountPoint.standardizedFileURL.path
        return mounts.split(separator: "\n").contains { $0.split(separator: " ").dropFirst().first.map(String.init) == path }
    }

    /// Runs a system tool (posix_spawn), returning its output or throwing its error output.
    @discardableResult
    static func tool(_ name: String, _ arguments: [String]) throws -> String {
        guard let path = name.hasPrefix("/") ? name : ProcessSpawn.which(name) else {
            throw BenchError.environment("\(name) is not installed")
        }
        let result = try ProcessSpawn.run(path, arguments, track: false)
        guard result.succeeded else {
            throw BenchError.environment("\(name) \(arguments.joined(separator: " ")) failed (\(result.exitCode)): \(result.standardError.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return result.standardOutput
    }
}
