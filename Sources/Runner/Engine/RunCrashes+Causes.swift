import Checks
import StoreCheck
import FaultFS
import Foundation
import StoreModel

/// The causes of durability findings: what the last crash dropped of a store's files, from FaultFS's op log,
/// with who made each lost operation and the barrier that never came.
extension RunCrashes {
    /// For `app-durable` and `blobs-carried`: each external data file the store names but lacks after the crash,
    /// with the operation that took it, from the whole op log: a create or rename into place that the crash
    /// dropped, or an unlink that happened (Core Data deletes an updated attachment's old file inside the save,
    /// before the commit that stops naming it). Files no operation explains are left out.
    func missingExternalFileFates(_ report: CheckReport?, store: URL) -> [String: LossRecord.Operation] {
        let names = Set((report?.violations ?? []).filter { $0.kind == .missingExternalFile }.compactMap(\.externalFileName))
        guard !names.isEmpty, let crashLoss = loss, let paths = volumePaths(of: store), let records = try? OpLog.read(crashLoss.log) else { return [:] }
        let dropped = Set(crashLoss.loss.dropped.map(\.seq))
        let crashSeq = crashLoss.loss.crash.seq
        var fates: [String: LossRecord.Operation] = [:]
        for name in names {
            // This store's file, not a copy of the same name in a backup's folder.
            let suffix = paths.support + "_EXTERNAL_DATA/" + name
            let mine = records.filter { (record: OpRecord) -> Bool in
                guard record.seq < crashSeq, record.result >= 0 else { return false }
                return record.path == suffix || record.path2 == suffix
            }
            let entries: Set<LoggedOp> = [.create, .rename, .link]
            let dropping = mine.last { (record: OpRecord) in dropped.contains(record.seq) && entries.contains(record.op) }
            let taken = dropping ?? mine.last { (record: OpRecord) in record.op == .unlink && record.path == suffix }
            guard let taken else { continue }
            let actor = actor(of: taken, loss: crashLoss.loss)
            fates[name] = LossRecord.Operation(what: CrashLoss.describe(taken), path: taken.path ?? "", actor: actor,
                                               kind: actor.map { ActorKind.of(actor: $0) } ?? .unknown,
                                               barrier: dropped.contains(taken.seq) ? "never" : "deleted")
        }
        return fates
    }

    /// What the last crash dropped of a store's files (its database, companions and support folder; a backup's
    /// whole folder): each operation with who made it and the fsync that never came, and the sentence a
    /// finding quotes (`CrashLoss`). Nil where there is no op log or the crash dropped nothing there (the loss is
    /// then elsewhere: a sentence would mislead).
    /// A store's database and support folder as the op log names them (relative to the volume's root), or nil
    /// for a store elsewhere.
    func volumePaths(of store: URL) -> (database: String, directory: String, support: String)? {
        guard let crashLoss = loss else { return nil }
        let root = crashLoss.root.standardizedFileURL.path
        let database = store.standardizedFileURL.path
        guard database.hasPrefix(root + "/") else { return nil }
        let relative = String(database.dropFirst(root.count))
        let name = (relative as NSString).lastPathComponent
        let directory = (relative as NSString).deletingLastPathComponent
        // `/Library.sqlite` at the volume's root: its folder is `/`, its support folder `/.Library_SUPPORT/`.
        let support = (directory as NSString).appendingPathComponent("." + (name as NSString).deletingPathExtension + "_SUPPORT") + "/"
        return (relative, directory, support)
    }

    func lossRecord(store: URL, what: String) -> LossRecord? {
        guard let crashLoss = self.loss, let (relative, directory, support) = volumePaths(of: store) else { return nil }
        let loss = crashLoss.loss
        // A backup's whole folder is its own (its temporary names too); a live store shares its folder.
        let prefixes = what == "the backup" ? [directory + "/"] : [relative, support]
        // The -shm is rebuilt from the -wal on the next open: what a crash did to it explains nothing.
        let lost = loss.lost(under: prefixes).filter { !($0.path ?? "").hasSuffix("-shm") && !($0.path2 ?? "").hasSuffix("-shm") }
        guard !lost.isEmpty else { return nil }
        let operations = lost.map { r -> LossRecord.Operation in
            let actor = actor(of: r, loss: loss)
            let barrier = loss.missingBarrier(for: r)
            let kind = barrier.contains("made nothing durable") ? "lied" : barrier.contains("that failed") ? "failed" : "never"
            return LossRecord.Operation(what: CrashLoss.describe(r), path: r.path ?? "", actor: actor,
                                        kind: actor.map { ActorKind.of(actor: $0) } ?? .unknown, barrier: kind)
        }
        return LossRecord(operations: operations, cause: cause(of: loss, lost: lost, store: store, relative: relative, what: what))
    }

    /// The finding's sentence: the most telling lost operations, the crash, and what that did to the store.
    func cause(of loss: CrashLoss, lost: [OpRecord], store: URL, relative: String, what: String) -> String {
        // Most telling first: name changes of the database itself, other name changes, then data.
        func rank(_ r: OpRecord) -> Int {
            let entry = r.op.isEntry
            let onDatabase = r.path == relative || r.path2 == relative
            return entry ? (onDatabase ? 0 : 1) : (onDatabase ? 2 : 3)
        }
        let shown = lost.enumerated().sorted { (rank($0.element), $0.offset) < (rank($1.element), $1.offset) }.prefix(3).map(\.element)
        var text = shown.map { loss.clause($0, actor: actor(of: $0, loss: loss)) }.joined(separator: "; ")
        if lost.count > shown.count {
            let rest = lost.filter { r in !shown.contains { $0.seq == r.seq } }
            let entries = rest.filter { $0.op.isEntry }.count
            text += "; and \(rest.count) more operation(s) like them (\(entries) directory entry change(s), \(rest.count - entries) data change(s))"
        }
        return text + "; " + loss.crashClause(count: lost.count) + ": " + effect(on: store, relative: relative, lost: lost, loss: loss, what: what)
    }

    /// What the crash left of the store's database: missing, empty, a deleted rollback journal back (so the next
    /// open rolls the last transaction back), or torn (the ranges that did not survive).
    func effect(on store: URL, relative: String, lost: [OpRecord], loss: CrashLoss, what: String) -> String {
        var info = stat()
        guard lstat(store.path, &info) == 0 else { return "\(what) is missing (no \(relative) after the crash)" }
        if info.st_size == 0 {
            // A valid -wal beside it is turso#4899's state: SQLite's next open deletes that -wal (read here, never opened).
            let wal = WriteAheadLog.read(URL(fileURLWithPath: store.path + "-wal")).flatMap { $0.commits > 0 ? $0 : nil }
            return "\(what) is empty (\(relative) has 0 bytes after the crash)" + (wal.map {
                ", beside a -wal holding \($0.commits) committed transaction(s) that SQLite's next open deletes, starting an empty database"
            } ?? "")
        }
        if lost.contains(where: { $0.op == .unlink && $0.path == relative + "-journal" }),
           FileManager.default.fileExists(atPath: store.path + "-journal") {
            return "\(what)'s deleted \(relative)-journal is back, so the next open rolls its last transaction back"
        }
        if lost.contains(where: { $0.op == .rename && $0.path2 == relative }) {
            return "the rename onto \(relative) was undone: \(what) is gone, \(relative) is again the file it replaced"
        }
        func ranges(_ path: String) -> String? {
            let ranges = loss.lostRanges(of: path)
            guard !ranges.isEmpty else { return nil }
            return "bytes " + ranges.prefix(4).map { "\($0.lowerBound)-\($0.upperBound)" }.joined(separator: ", ")
                + (ranges.count > 4 ? " and \(ranges.count - 4) more range(s)" : "") + " of \(path)"
        }
        if let torn = ranges(relative) { return "\(what) is torn: \(torn) did not survive" }
        if let wal = ranges(relative + "-wal") { return "\(what) lost what its -wal held there: \(wal) did not survive" }
        return "\(what) lost the changes above (\(relative) is \(info.st_size) bytes)"
    }

    /// The child the runner started behind a record (a backup step, a writer), with the command that made the
    /// call when it was another program (a script's `cp`); the runner itself; or the command and pid.
    func actor(of record: OpRecord, loss: CrashLoss) -> String? {
        guard let pid = record.pid else { return nil }
        return loss.processes.actor(of: pid, runner: getpid(), child: childName)
    }
}
