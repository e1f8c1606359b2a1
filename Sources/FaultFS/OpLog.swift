import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// One line of the op log (JSON Lines). Enough to replay the run and to enumerate crash states later:
/// every write carries offset, length, inode and a content hash (and with `--log-data` the payload's
/// place in the `<log>.data` sidecar); barriers list the seqs they made durable; crashes list what survived.
public struct OpRecord: Codable, Sendable, Equatable {
    /// Position in the run, shared by all records; pending ops are ordered by it.
    public var seq: UInt64
    /// Seconds since the mount.
    public var t: Double
    /// What the record is: a call ("write", "fsync", ...) or the daemon's own ("crash", "mark", ...).
    public var op: LoggedOp
    public var path: String?
    /// Second path: rename/exchange target, link target name, symlink target.
    public var path2: String?
    /// Backing inode of the file concerned (stable across renames).
    public var ino: UInt64?
    public var offset: Int64?
    public var length: Int64?
    /// New size for truncate; size after the op for writes.
    public var size: Int64?
    /// 0 or a non-negative byte count on success, -errno on failure.
    public var result: Int64
    /// Whether the op's effect was durable when it returned (data ops and entry ops are not until a barrier).
    public var durable: Bool?
    /// Id of the rule that fired on this call, or null.
    public var fault: String?
    /// FNV-1a 64 of the written bytes (hex).
    public var hash: String?
    /// Offset of the payload in the `<log>.data` sidecar (only with --log-data).
    public var dataOffset: UInt64?
    /// Barrier records: the seqs that became durable. Crash records: the seqs that survived.
    public var synced: [UInt64]?
    /// Crash records: the seqs that were dropped.
    public var dropped: [UInt64]?
    /// Crash mode, fallocate mode, rename flags, open flags, marker label...
    public var detail: String?
    /// The process (thread group) that made the call, from FUSE's request context; nil for records the daemon
    /// writes itself (crash, mark, mount) and for calls the kernel makes on nobody's behalf.
    public var pid: Int32?
    /// On the first record of each process only: its command name and its parents (nearest first, up to 8), so
    /// an op can be traced to the child the runner started even when a script's `cp` made it (`OpLogProcesses`).
    public var comm: String?
    public var parents: [Int32]?

    public init(seq: UInt64, t: Double, op: LoggedOp, path: String? = nil, path2: String? = nil, ino: UInt64? = nil,
                offset: Int64? = nil, length: Int64? = nil, size: Int64? = nil, result: Int64, durable: Bool? = nil,
                fault: String? = nil, hash: String? = nil, dataOffset: UInt64? = nil, synced: [UInt64]? = nil,
                dropped: [UInt64]? = nil, detail: String? = nil, pid: Int32? = nil) {
        self.seq = seq; self.t = t; self.op = op; self.path = path; self.path2 = path2; self.ino = ino
        self.offset = offset; self.length = length; self.size = size; self.result = result; self.durable = durable
        self.fault = fault; self.hash = hash; self.dataOffset = dataOffset; self.synced = synced
        self.dropped = dropped; self.detail = detail; self.pid = pid
    }

    enum CodingKeys: String, CodingKey {
        case seq, t, op, path, path2, ino, offset, length, size, result, durable, fault, hash, dataOffset, synced, dropped, detail
        case pid, comm, parents
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(seq, forKey: .seq)
        try c.encode(t, forKey: .t)
        try c.encode(op, forKey: .op)
        try c.encodeIfPresent(path, forKey: .path)
        try c.encodeIfPresent(path2, forKey: .path2)
        try c.encodeIfPresent(ino, forKey: .ino)
        try c.encodeIfPresent(offset, forKey: .offset)
        try c.encodeIfPresent(length, forKey: .length)
        try c.encodeIfPresent(size, forKey: .size)
        try c.encode(result, forKey: .result)
        try c.encodeIfPresent(durable, forKey: .durable)
        try c.encode(fault, forKey: .fault) // always present: null when no rule fired
        try c.encodeIfPresent(hash, forKey: .hash)
        try c.encodeIfPresent(dataOffset, forKey: .dataOffset)
        try c.encodeIfPresent(synced, forKey: .synced)
        try c.encodeIfPresent(dropped, forKey: .dropped)
        try c.encodeIfPresent(detail, forKey: .detail)
        try c.encodeIfPresent(pid, forKey: .pid)
        try c.encodeIfPresent(comm, forKey: .comm)
        try c.encodeIfPresent(parents, forKey: .parents)
    }

    /// One human-readable line (for `faultfs log FILE`).
    public var humanDescription: String {
        var s = String(format: "%6llu %9.4f %-15@", seq, t, op.rawValue as NSString)
        if let p = path { s += " \(p)" }
        if let p = path2 { s += " -> \(p)" }
        if let o = offset { s += " @\(o)" }
        if let l = length { s += " len=\(l)" }
        if let z = size { s += " size=\(z)" }
        s += result < 0 ? " = \(ErrnoNames.name(of: Int32(-result)))" : " = \(result)"
        if durable == false { s += " (unsynced)" }
        if let f = fault { s += " [fault \(f)]" }
        if let h = hash { s += " #\(h)" }
        if let d = synced, !d.isEmpty { s += " synced=\(d.count < 12 ? d.map(String.init).joined(separator: ",") : "\(d.count) ops")" }
        if let d = dropped, !d.isEmpty { s += " dropped=\(d.count < 12 ? d.map(String.init).joined(separator: ",") : "\(d.count) ops")" }
        if let d = detail { s += " {\(d)}" }
        if let p = pid { s += " pid=\(p)" + (comm.map { "(\($0))" } ?? "") }
        return s
    }
}

/// Reading and writing an op log: JSON Lines, one `OpRecord` a line.
public enum OpLog {
    /// The one encoding of an op-log line: sorted keys, slashes not escaped. The byte scans of long logs
    /// (`OpLogLine` in Runner) find fields by the text this writes, so every writer and test goes through it.
    public static func line(_ record: OpRecord) throws -> Data {
        var line = try encoder.encode(record)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// `value` as a JSON string exactly as `line` writes it inside a record.
    public static func encodedString(_ value: String) -> String {
        (try? encoder.encode(value)).map { String(decoding: $0, as: UTF8.self) } ?? "\"\(value)\""
    }

    private static let encoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    /// Decodes every record of a JSON Lines op log, in file order. Throws on an unreadable file or bad line.
    public static func read(_ url: URL) throws -> [OpRecord] {
        let data = try Data(contentsOf: url)
        let decoder = JSONDecoder()
        var records: [OpRecord] = []
        for (i, line) in data.split(separator: UInt8(ascii: "\n")).enumerated() where !line.isEmpty {
            do {
                records.append(try decoder.decode(OpRecord.self, from: Data(line)))
            } catch {
                throw FaultFSError.io("op log \(url.path) line \(i + 1): \(error)")
            }
        }
        return records
    }

    /// The bytes a write record refers to, from the `<log>.data` sidecar (needs --log-data).
    public static func payload(of record: OpRecord, log url: URL) throws -> Data? {
        guard let off = record.dataOffset, let len = record.length else { return nil }
        let h = try FileHandle(forReadingFrom: URL(fileURLWithPath: url.path + ".data"))
        defer { try? h.close() }
        try h.seek(toOffset: off)
        return try h.read(upToCount: Int(len)) ?? Data()
    }
}

/// Buffered op log writer. Records are encoded on the calling thread and appended to a buffer that is
/// written out when it grows, on fsync/crash/shutdown, and by a timer (every 200 ms).
final class OpLogWriter: Sendable {
    private struct State {
        var buffer = Data()
        var sidecarOffset: UInt64 = 0
        var closed = false
    }

    private let fd: Int32
    private let sidecarFD: Int32
    private let state = Mutex(State())
    private let start: Double

    /// Opens (truncating) the log and, when `withData`, the `<path>.data` sidecar.
    init(path: String, withData: Bool) throws {
        fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        if fd < 0 { throw FaultFSError.io("cannot open log \(path): \(String(cString: strerror(errno)))") }
        if withData {
            sidecarFD = open(path + ".data", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
            if sidecarFD < 0 { throw FaultFSError.io("cannot open \(path).data: \(String(cString: strerror(errno)))") }
        } else {
            sidecarFD = -1
        }
        start = monotonicSeconds()
        let timerThread = Thread { [weak self] in
            while let me = self, !me.isClosed {
                usleep(200_000)
                me.flush()
            }
        }
        timerThread.start()
    }

    var isClosed: Bool { state.withLock { $0.closed } }
    var storesData: Bool { sidecarFD >= 0 }

    /// Seconds since the log was opened (the mount).
    func now() -> Double { monotonicSeconds() - start }

    /// Stores a payload in the sidecar; returns its offset (nil without --log-data).
    func storePayload(_ bytes: UnsafeRawBufferPointer) -> UInt64? {
        guard sidecarFD >= 0 else { return nil }
        return state.withLock { s in
            let off = s.sidecarOffset
            _ = pwriteAll(sidecarFD, bytes, Int64(off))
            s.sidecarOffset += UInt64(bytes.count)
            return off
        }
    }

    func append(_ record: OpRecord) {
        guard let line = try? OpLog.line(record) else { return }
        let full: Bool = state.withLock { s in
            if s.closed { return false }
            s.buffer.append(line)
            return s.buffer.count > 256 * 1024
        }
        if full { flush() }
    }

    func flush() {
        state.withLock { s in
            guard !s.buffer.isEmpty, !s.closed else { return }
            s.buffer.withUnsafeBytes { b in
                var done = 0
                while done < b.count {
                    let n = write(fd, b.baseAddress!.advanced(by: done), b.count - done)
                    if n <= 0 { if errno == EINTR { continue }; break }
                    done += n
                }
            }
            s.buffer.removeAll(keepingCapacity: true)
        }
    }

    func close() {
        flush()
        state.withLock { s in
            guard !s.closed else { return }
            s.closed = true
            _ = fsync(fd)
            _ = Glibc.close(fd)
            if sidecarFD >= 0 { _ = Glibc.close(sidecarFD) }
        }
    }
}

func monotonicSeconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
}
