import CLifeboatSys
import Checks
import FaultFS
import Foundation

extension FaultFSVolume {
    /// The live store's activity over the run from the op log (`StoreActivity`): `database` is the store's path as
    /// the volume names it ("/Library.sqlite"), `now` the run's clock at this call (a mark written now maps the
    /// log's clock, seconds since the mount, onto the run's), `name` names the child behind a pid and its
    /// ancestors. Only the lines that can matter are decoded (writes, fsyncs, the mark), so a long run's log
    /// costs little. Nil without an op log.
    func storeActivity(database: String, now: Double, name: ([Int32]) -> String?) -> StoreActivity? {
        guard let log = mount.log, let markSeq = try? mount.logMark("timeline") else { return nil }
        guard let data = try? Data(contentsOf: log) else { return nil }
        let wal = database + "-wal"
        // Writes are most of a long run's log: they are read with a byte scan for the four fields that matter
        // (`OpLogLine`); the few other lines that matter (barriers, the mark, each process's first record, with
        // its command and parents for naming it) are decoded in full.
        let walPath = OpLogLine.key("path", string: wal), databasePath = OpLogLine.key("path", string: database)
        let writeOp = OpLogLine.key("op", string: LoggedOp.write.rawValue), markOp = OpLogLine.key("op", string: LoggedOp.mark.rawValue)
        let parents = Data("\"parents\"".utf8)
        let (tKey, resultKey, offsetKey, lengthKey, pidKey) = (OpLogLine.field("t"), OpLogLine.field("result"), OpLogLine.field("offset"),
                                                              OpLogLine.field("length"), OpLogLine.field("pid"))
        let decoder = JSONDecoder()
        var writes: [(t: Double, wal: Bool, offset: Int64, length: Int64)] = []
        var barriers: [(t: Double, pid: Int32?, line: Data)] = []
        var records: [OpRecord] = []
        OpLogLine.lines(of: data) { line in
            let first = line.contains(parents)
            if first || line.contains(markOp), let record = try? decoder.decode(OpRecord.self, from: line.data) { records.append(record) }
            guard (line.number(resultKey) ?? -1) >= 0, let t = line.number(tKey) else { return }
            if line.contains(writeOp) {
                let toWal = line.contains(walPath)
                if toWal || line.contains(databasePath) {
                    writes.append((t, toWal, Int64(line.number(offsetKey) ?? 0), Int64(line.number(lengthKey) ?? 0)))
                }
            } else if OpLogLine.barrierOps.contains(where: { line.contains($0) }) {
                barriers.append((t, line.number(pidKey).map { Int32($0) }, line.data))
            }
        }
        guard let mark = records.last(where: { $0.op == .mark && $0.seq == markSeq }) ?? records.last(where: { $0.op == .mark }) else { return nil }
        let offset = now - mark.t
        let processes = OpLogProcesses(records)
        func named(_ pid: Int32?) -> String? { pid.map { processes.actor(of: $0, runner: getpid(), child: name) } }
        var activity = StoreActivity()
        var walLength: Int64 = 0
        for write in writes where write.wal {
            let t = write.t + offset
            let end = write.offset + write.length
            // SQLite rewrites the header at offset 0 when it starts the log again after a checkpoint.
            walLength = write.offset == 0 ? end : max(walLength, end)
            if let last = activity.walBytes.last, t - last.t < 0.02 {
                activity.walBytes[activity.walBytes.count - 1].bytes = max(last.bytes, walLength)
            } else {
                activity.walBytes.append(.init(t: t, bytes: walLength))
            }
        }
        // The fsyncs: the app's counted (every commit makes one), the others marked with who made them; a line is
        // decoded only for a mark.
        var databaseBarriers: [(t: Double, who: String?)] = []
        for barrier in barriers {
            let who = named(barrier.pid)
            if let who, who.hasPrefix("writer-") || who.hasPrefix("reader-") {
                activity.appFsyncs += 1
            } else if who != "the runner", let record = try? decoder.decode(OpRecord.self, from: barrier.line) {
                // The runner's own fsyncs (generating the store) are the harness's setup, not the run under test.
                activity.fsyncs.append(.init(t: barrier.t + offset, what: "\(record.op) \(record.path ?? "?")", actor: who))
                if record.path == database { databaseBarriers.append((barrier.t, who)) }
            }
        }
        // Writes into the database file less than a second apart are one checkpoint: the app's (its writers or a
        // scheduled checkpoint step, whose fsyncs are counted, not marked) unless another process's fsync of the
        // database file follows within the burst.
        var lastCheckpointWrite = -Double.infinity
        for write in writes where !write.wal {
            let t = write.t + offset
            if t - lastCheckpointWrite > 1 {
                let other = databaseBarriers.first { $0.t >= write.t && $0.t - write.t < 1 }?.who
                let app = other.map { $0.hasPrefix("checkpoint") } ?? true
                activity.checkpoints.append(.init(t: t, what: app ? "checkpoint" : "writes into the database", actor: other))
            }
            lastCheckpointWrite = t
        }
        return activity
    }

}

extension FaultFSVolume {
    /// `file`'s path as the volume's op log names it ("/Library.sqlite"), or nil for a file elsewhere.
    func volumePath(of file: URL) -> String? {
        let root = directory.standardizedFileURL.path
        let path = file.standardizedFileURL.path
        guard path.hasPrefix(root + "/") else { return nil }
        return String(path.dropFirst(root.count))
    }
}

/// A byte scan of one op-log line (JSON Lines written by the daemon through `OpLog.line`: sorted keys, slashes not escaped)
/// for the few fields a long log's writes need, without decoding the line.
struct OpLogLine {
    let bytes: UnsafeRawBufferPointer

    /// `"name":"value",` as the daemon's encoder writes it.
    static func key(_ name: String, string value: String) -> Data {
        Data("\"\(name)\":\(OpLog.encodedString(value)),".utf8)
    }

    /// Calls `body` with each non-empty line of `data`.
    static func lines(of data: Data, _ body: (OpLogLine) -> Void) {
        data.withUnsafeBytes { (all: UnsafeRawBufferPointer) in
            guard let base = all.baseAddress else { return }
            var start = 0
            while start < all.count {
                let end = memchr(base + start, Int32(UInt8(ascii: "\n")), all.count - start).map { $0 - UnsafeMutableRawPointer(mutating: base) } ?? all.count
                if end > start { body(OpLogLine(bytes: UnsafeRawBufferPointer(rebasing: all[start..<end]))) }
                start = end + 1
            }
        }
    }

    var data: Data { Data(bytes) }

    func contains(_ needle: Data) -> Bool { range(of: needle) != nil }

    /// Where `needle` ends in the line.
    private func range(of needle: Data) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return needle.withUnsafeBytes { n -> Int? in
            guard let found = lb_memmem(base, bytes.count, n.baseAddress, n.count) else { return nil }
            return found - UnsafeMutableRawPointer(mutating: base) + n.count
        }
    }

    /// The `op` fields of the barriers (`LoggedOp.isBarrier`: a file's fsync or fdatasync, a folder's fsync, a
    /// sync-all), as the daemon writes them.
    static let barrierOps = LoggedOp.allCases.filter(\.isBarrier).map { key("op", string: $0.rawValue) }

    /// `"name":`, the key before a number.
    static func field(_ name: String) -> Data { Data("\"\(name)\":".utf8) }

    /// The number after `key` (`field(name)`), or nil when the line has no such field or it is not a number.
    func number(_ key: Data) -> Double? {
        guard let end = range(of: key), end < bytes.count, let base = bytes.baseAddress else { return nil }
        let first = bytes[end]
        guard (first >= UInt8(ascii: "0") && first <= UInt8(ascii: "9")) || first == UInt8(ascii: "-") else { return nil }
        // strtod stops at the ',' or '}' that ends the number, inside the line.
        return strtod(base.assumingMemoryBound(to: CChar.self) + end, nil)
    }
}
