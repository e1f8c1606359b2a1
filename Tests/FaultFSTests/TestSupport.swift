import Foundation
import LifeboatTestSupport
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

/// A scratch directory with a backing dir and a mountpoint, a running FaultFS mount over them, and an op
/// log. `withMount` always unmounts and removes the scratch directory, even when the body throws.
final class MountFixture: Sendable {
    let root: URL
    let backing: URL
    let mnt: URL
    let log: URL
    let fs: FaultFSMount

    init(seed: UInt64 = 1, logData: Bool = false, arguments: [String] = []) throws {
        let tmpl = strdup("/tmp/ffs-XXXXXX")!
        defer { free(tmpl) }
        guard mkdtemp(tmpl) != nil else { throw FaultFSError.io("mkdtemp failed") }
        root = URL(fileURLWithPath: String(cString: tmpl))
        backing = root.appendingPathComponent("backing")
        mnt = root.appendingPathComponent("mnt")
        log = root.appendingPathComponent("ops.jsonl")
        try FileManager.default.createDirectory(at: backing, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: mnt, withIntermediateDirectories: true)
        fs = try FaultFSMount.start(backing: backing, mountpoint: mnt, seed: seed, log: log, logData: logData,
                                    extraArguments: arguments)
    }

    /// Path on the mount.
    func path(_ name: String) -> String { mnt.path + "/" + name }
    /// Path in the backing directory.
    func backingPath(_ name: String) -> String { backing.path + "/" + name }

    func tearDown() {
        fs.unmount()
        try? FileManager.default.removeItem(at: root)
    }
}

func withMount(seed: UInt64 = 1, logData: Bool = false, arguments: [String] = [], _ body: (MountFixture) throws -> Void) throws {
    let m = try MountFixture(seed: seed, logData: logData, arguments: arguments)
    defer { m.tearDown() }
    try body(m)
}

/// A POSIX call's outcome: a byte count / 0, or an errno. Compared across mount and plain directory.
enum Outcome: Equatable, CustomStringConvertible {
    case ok(Int)
    case bytes([UInt8])
    case err(Int32)

    var description: String {
        switch self {
        case .ok(let n): return "ok(\(n))"
        case .bytes(let b): return "bytes(\(b.count))"
        case .err(let e): return "err(\(ErrnoNames.name(of: e)))"
        }
    }
}

/// Thin POSIX helpers: the tests check errno values, so they call libc directly.
enum Posix {
    static func open(_ path: String, _ flags: Int32, _ mode: mode_t = 0o644) -> Int32 { Glibc.open(path, flags, mode) }

    /// Writes bytes at an offset through a fresh descriptor; returns the count or errno.
    @discardableResult
    static func write(_ path: String, _ bytes: [UInt8], at offset: Int64 = 0, flags: Int32 = O_WRONLY | O_CREAT,
                      fsync: Bool = false) -> Outcome {
        let fd = Glibc.open(path, flags, 0o644)
        if fd < 0 { return .err(errno) }
        defer { close(fd) }
        let n = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, off_t(offset)) }
        if n < 0 { return .err(errno) }
        if fsync && Glibc.fsync(fd) != 0 { return .err(errno) }
        return .ok(n)
    }

    static func fsyncFile(_ path: String) -> Outcome {
        let fd = Glibc.open(path, O_RDWR)
        if fd < 0 { return .err(errno) }
        defer { close(fd) }
        return Glibc.fsync(fd) == 0 ? .ok(0) : .err(errno)
    }

    /// fsync of a directory: the barrier that makes entry changes durable.
    @discardableResult
    static func fsyncDir(_ path: String) -> Outcome {
        let fd = Glibc.open(path, O_RDONLY | O_DIRECTORY)
        if fd < 0 { return .err(errno) }
        defer { close(fd) }
        return Glibc.fsync(fd) == 0 ? .ok(0) : .err(errno)
    }

    static func read(_ path: String, at offset: Int64 = 0, count: Int = 1 << 20) -> Outcome {
        let fd = Glibc.open(path, O_RDONLY)
        if fd < 0 { return .err(errno) }
        defer { close(fd) }
        var buf = [UInt8](repeating: 0, count: count)
        let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, $0.count, off_t(offset)) }
        if n < 0 { return .err(errno) }
        return .bytes(Array(buf[0..<n]))
    }

    /// Whole file contents, or nil when it cannot be opened.
    static func contents(_ path: String) -> [UInt8]? {
        guard let d = FileManager.default.contents(atPath: path) else { return nil }
        return [UInt8](d)
    }

    static func exists(_ path: String) -> Bool {
        var st = stat()
        return lstat(path, &st) == 0
    }
}

/// Runs a program to completion (posix_spawn via Foundation's Process); returns status and output.
@discardableResult
func runProcess(_ exe: String, _ args: [String]) throws -> (status: Int32, output: String) {
    let p = Process()
    p.executableURL = URL(fileURLWithPath: exe)
    p.arguments = args
    let pipe = Pipe()
    p.standardOutput = pipe
    p.standardError = pipe
    try p.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    p.waitUntilExit()
    return (p.terminationStatus, String(decoding: data, as: UTF8.self))
}

/// All FUSE mount tests run one after another: each spawns a daemon, and the machine may have 2 cores.
@Suite(.serialized, .ownThread) struct MountTests {}
