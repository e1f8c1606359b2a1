import Foundation

/// What a crash took away, read back from the op log: the crash record lists the seqs of the pending operations
/// it dropped (and the write it tore); the records with those seqs say which file or directory entry, which
/// operation, when and by which process; the records after each say which fsync never came (or came and lied or
/// failed). A durability finding quotes these sentences, so a reader can check it against the log line by line.
///
/// Paths are the volume's own (`/backups/0-1/Library.sqlite`); times are the log's (seconds since the mount)
/// plus `clockOffset`, which a runner sets so the times read on its own clock.
public struct CrashLoss: Sendable {
    public let crash: OpRecord
    /// Every pending operation the crash dropped, and every one a failed fsync gave up since the previous crash, in
    /// seq order (the torn write is not among them).
    public let dropped: [OpRecord]
    /// The write the crash tore (`torn` mode), and where it was cut.
    public let torn: (record: OpRecord, cut: Int64)?
    /// Records before the crash, for finding the barriers that came (or did not) after a dropped operation.
    let before: [OpRecord]
    /// Command name and parents of each process, from the first record it made.
    public let processes: OpLogProcesses
    public var clockOffset: Double = 0

    /// The loss of the last crash in `records`, or nil when the log holds no crash.
    public init?(records: [OpRecord]) {
        guard let index = records.lastIndex(where: { $0.op == .crash }) else { return nil }
        let crash = records[index]
        let before = Array(records[..<index])
        let droppedSeqs = Set(crash.dropped ?? [])
        self.crash = crash
        self.before = before
        // Data a failed fsync gave up (`fsync-fail-clean`, or any EIO under `--fsync-failure`) was lost at that fsync,
        // not at the crash, but the crash is when it shows: it counts among the dropped, and `missingBarrier` names
        // the failed fsync. Only failures since the previous crash (an earlier crash already showed the older ones).
        let since = before.lastIndex(where: { $0.op == .crash }).map { $0 + 1 } ?? 0
        let failedSeqs = Set(before[since...].filter { $0.op.isFileSync && $0.result < 0 }
            .flatMap { $0.dropped ?? [] })
        self.dropped = before.filter { (droppedSeqs.contains($0.seq) || failedSeqs.contains($0.seq)) && $0.result >= 0 }
        self.processes = OpLogProcesses(records)
        if let detail = crash.detail, detail.hasPrefix("torn seq "), let seq = UInt64(detail.dropFirst(9)),
           let record = before.last(where: { $0.seq == seq }), let cut = crash.offset {
            torn = (record, cut)
        } else {
            torn = nil
        }
    }

    /// Reads the op log at `url` (nil when it cannot be read or holds no crash).
    public static func read(_ url: URL) -> CrashLoss? {
        guard let records = try? OpLog.read(url) else { return nil }
        return CrashLoss(records: records)
    }

    /// The dropped operations (and the torn write) on `prefixes` or below them: a path equal to a prefix, or
    /// starting with it (a prefix ending in `/` names a directory's contents; `/Library.sqlite` also covers its
    /// `-wal` and `-journal`).
    public func lost(under prefixes: [String]) -> [OpRecord] {
        func matches(_ path: String?) -> Bool {
            guard let path else { return false }
            return prefixes.contains { path == $0 || path.hasPrefix($0) || $0.hasSuffix("/") && path == String($0.dropLast()) }
        }
        var result = dropped.filter { matches($0.path) || matches($0.path2) }
        if let torn, matches(torn.record.path) { result.append(torn.record) }
        return result.sorted { $0.seq < $1.seq }
    }

    /// The process of a record and its parents (nearest first): what a runner maps to the child it started.
    public func chain(_ record: OpRecord) -> [Int32] {
        record.pid.map(processes.chain) ?? []
    }

    public func command(_ record: OpRecord) -> String? { record.pid.flatMap(processes.command) }

    /// What a dropped operation did, in words: `rename A -> B`, `write of 4096 bytes at 8192 to A`.
    public static func describe(_ r: OpRecord) -> String {
        let path = r.path ?? "?"
        switch r.op {
        case .write: return "write of \(r.length ?? 0) bytes at \(r.offset ?? 0) to \(path)"
        case .truncate: return "truncate of \(path) to \(r.size ?? r.length ?? 0) bytes"
        case .fallocate: return "fallocate of \(r.length ?? 0) bytes at \(r.offset ?? 0) in \(path)"
        case .rename, .exchange, .link: return "\(r.op) \(path) -> \(r.path2 ?? "?")"
        default: return "\(r.op) \(path)"
        }
    }

    /// The fsync that would have made `r` durable, and what happened instead: never called, called and lied
    /// (a fault rule), or failed. Entry operations need an fsync of the directory holding the new name (for a
    /// rename, the target's; FaultFS settles pending entry changes in order, so a later fsync of any changed
    /// directory would have done too).
    public func missingBarrier(for r: OpRecord) -> String {
        let entry = r.op.isEntry
        let subject = entry ? Self.directory(of: r.op == .rename || r.op == .link ? (r.path2 ?? r.path ?? "/") : (r.path ?? "/")) : (r.path ?? "?")
        let later = before.filter { $0.seq > r.seq }
        let barriers = later.filter { other in
            if entry { return other.op == .fsyncdir && other.path == subject }
            return other.op.isFileSync && (other.ino != nil && other.ino == r.ino || other.path == r.path)
        }
        let what = entry ? "an fsync of its directory \(subject)" : "an fsync of \(subject)"
        if let lie = barriers.first(where: { $0.detail?.contains("lie") == true }) {
            return "was followed by \(what) at \(time(lie.t)) that returned success but made nothing durable (fault \(lie.fault ?? "?"))"
        }
        if let failed = barriers.first(where: { $0.result < 0 }) {
            var text = "was followed by \(what) at \(time(failed.t)) that failed (\(ErrnoNames.name(of: Int32(-failed.result))))"
            // A retry after a failed fsync that gave the write up succeeds without writing it (fsync-failure semantics).
            if (failed.dropped ?? []).contains(r.seq),
               let retry = barriers.first(where: { $0.seq > failed.seq && $0.result == 0 && !($0.synced ?? []).contains(r.seq) }) {
                text += ", then by one at \(time(retry.t)) that returned success without writing it (the failed fsync had given it up)"
            }
            return text
        }
        return "was never followed by \(what)"
    }

    /// One clause for one lost operation: what, when, by whom, and the fsync that never came (for the torn
    /// write, where the crash cut it).
    public func clause(_ r: OpRecord, actor: String?) -> String {
        let who = actor.map { " by \($0)" } ?? ""
        var text = "\(Self.describe(r)) at \(time(r.t))\(who) \(missingBarrier(for: r))"
        if let torn, torn.record.seq == r.seq {
            text += " (the crash tore it at byte \(torn.cut): bytes \(torn.cut)-\((r.offset ?? 0) + (r.length ?? 0)) were lost)"
        }
        return text
    }

    /// The crash, as the end of a cause: "the crash at 0.427 s dropped it" (or them).
    public func crashClause(count: Int) -> String {
        "the crash at \(time(crash.t)) dropped \(count == 1 ? "it" : "them")"
    }

    /// The byte ranges of `path` whose writes the crash dropped or tore, merged (for "a torn file").
    public func lostRanges(of path: String) -> [Range<Int64>] {
        var ranges: [Range<Int64>] = []
        for r in dropped where r.op == .write && r.path == path {
            let start = r.offset ?? 0
            ranges.append(start..<(start + (r.length ?? 0)))
        }
        if let torn, torn.record.path == path {
            ranges.append(torn.cut..<((torn.record.offset ?? 0) + (torn.record.length ?? 0)))
        }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [Range<Int64>] = []
        for range in ranges where !range.isEmpty {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }

    func time(_ t: Double) -> String { String(format: "%.3f s", t + clockOffset) }

    static func directory(of path: String) -> String {
        let parent = (path as NSString).deletingLastPathComponent
        return parent.isEmpty ? "/" : parent
    }
}
