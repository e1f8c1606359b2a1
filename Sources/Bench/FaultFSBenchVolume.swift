import FaultFS
import Foundation

/// FaultFS with no fault armed under the bench's stores, so each round can say how many fsync, fdatasync and
/// directory fsync calls the strategy made (counted from the op log between two marks). Times measured on it
/// include FUSE's overhead (see docs/faultfs.md): it is the volume for durability costs, not for speed.
final class FaultFSBenchVolume: Sendable {
    let mount: FaultFSMount
    let backing: URL
    let log: URL

    var mountPoint: URL { mount.mountpoint }

    init(in scratch: URL, id: String) throws {
        backing = scratch.appendingPathComponent("bench-\(id)-backing", isDirectory: true)
        let mountPoint = scratch.appendingPathComponent("bench-\(id)-faultfs", isDirectory: true)
        log = scratch.appendingPathComponent("bench-\(id)-faultfs.oplog")
        try FileManager.default.createDirectory(at: backing, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: true)
        do {
            mount = try FaultFSMount.start(backing: backing, mountpoint: mountPoint, log: log)
        } catch {
            try? FileManager.default.removeItem(at: backing)
            try? FileManager.default.removeItem(at: mountPoint)
            throw BenchError.environment("--volume faultfs: \(error)")
        }
    }

    /// Unmounts and deletes the backing directory and the op log; safe to call twice.
    func remove() {
        mount.unmount()
        try? FileManager.default.removeItem(at: mount.mountpoint)
        try? FileManager.default.removeItem(at: backing)
        try? FileManager.default.removeItem(at: log)
        try? FileManager.default.removeItem(at: URL(fileURLWithPath: log.path + ".data"))
        for suffix in [".daemon.log", ".ctl"] { try? FileManager.default.removeItem(atPath: mount.mountpoint.path + suffix) }
    }

    /// Runs `body` between two op log marks and counts the sync calls the log holds between them.
    func countingSyncs<T>(_ label: String, _ body: () throws -> T) throws -> (T, [String: Int]) {
        let start = try mount.logMark("\(label) start")
        let value = try body()
        let end = try mount.logMark("\(label) end")
        var counts = ["fsync": 0, "fdatasync": 0, "fsyncdir": 0]
        for record in try OpLog.read(log) where record.seq > start && record.seq < end && counts[record.op.rawValue] != nil {
            counts[record.op.rawValue, default: 0] += 1
        }
        return (value, counts)
    }
}
