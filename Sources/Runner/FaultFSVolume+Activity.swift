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
        let wanted = ["\"op\":\"write\"", "\"op\":\"fsync\"", "\"op\":\"fdatasync\"", "\"op\":\"mark\""].map { Data($0.utf8) }
        let decoder = JSONDecoder()
        var records: [OpRecord] = []
        for line in data.split(separator: UInt8(ascii: "\n")) where wanted.contains(where: { line.firstRange(of: $0) != nil }) {
            if let record = try? decoder.decode(OpRecord.self, from: Data(line)) { records.append(record) }
        }
        guard let mark = records.last(where: { $0.op == "mark" && $0.seq == markSeq }) ?? records.last(where: { $0.op == "mark" }) else { return nil }
        let offset = now - mark.t
        let wal = database + "-wal"
        var activity = StoreActivity()
        var walLength: Int64 = 0
        var lastCheckpointWrite = -Double.infinity
        for record in records where record.result >= 0 {
            let t = record.t + offset
            switch record.op {
            case "write" where record.path == wal:
                let end = (record.offset ?? 0) + (record.length ?? 0)
                // SQLite rewrites the header at offset 0 when it starts the log again after a checkpoint.
                walLength = record.offset == 0 ? end : max(walLength, end)
                if let last = activity.walBytes.last, t - last.t < 0.02 {
                    activity.walBytes[activity.walBytes.count - 1].bytes = max(last.bytes, walLength)
                } else {
                    activity.walBytes.append(.init(t: t, bytes: walLength))
                }
            case "write" where record.path == database:
                // Writes into the database file less than a second apart are one checkpoint.
                if t - lastCheckpointWrite > 1 {
                    let who = actor(record, name: name)
                    let app = who.map { $0.hasPrefix("writer-") || $0.hasPrefix("reader-") || $0.hasPrefix("checkpoint") } ?? false
                    activity.checkpoints.append(.init(t: t, what: app ? "checkpoint" : "writes into the database", actor: who))
                }
                lastCheckpointWrite = t
            case "fsync", "fdatasync":
                let who = actor(record, name: name)
                if let who, who.hasPrefix("writer-") || who.hasPrefix("reader-") {
                    activity.appFsyncs += 1
                } else {
                    activity.fsyncs.append(.init(t: t, what: "\(record.op) \(record.path ?? "?")", actor: who))
                }
            default:
                continue
            }
        }
        return activity
    }

    private func actor(_ record: OpRecord, name: ([Int32]) -> String?) -> String? {
        guard let pid = record.pid else { return nil }
        if pid == getpid() { return "the runner" }
        return name([pid] + (record.parents ?? [])) ?? record.comm.map { "\($0) (pid \(pid))" }
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
