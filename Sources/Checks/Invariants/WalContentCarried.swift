import Foundation

/// `wal-content-carried`: every transaction acknowledged before a backup began is in it, the ones still in the
/// live store's `-wal` included.
struct WalContentCarried: Invariant {
    let name = "wal-content-carried"
    let fix = "copy the -wal with the database (under a lock), or copy through SQLite, which reads the -wal"
    let consequence = "every commit since the last checkpoint is missing from the backup"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.backups.compactMap { step in
            guard let backup = step.backup else { return nil }
            let oracle = run.oracle(round: step.round)
            guard let state = backup.store.state?.value else { return Self.unreadable(oracle: oracle, backupStart: step.start, label: step.label) }
            return Self.verdict(oracle.match(state), oracle: oracle, backupStart: step.start, label: step.label)
        }
    }

    static func verdict(_ matches: [Oracle.Match], oracle: Oracle, backupStart: Double, label: String) -> Verdict {
        var evidence: [String] = []
        for match in matches {
            let acked = oracle.sequence(of: match.writer).prefix { $0.ackAt.map { $0 < backupStart } ?? false }.count
            let reflected = match.prefixes.max() ?? -1
            if reflected < acked {
                let missing = oracle.sequence(of: match.writer).dropFirst(max(0, reflected)).prefix(acked - max(0, reflected))
                let description = reflected < 0 ? "matches no prefix of its history" : "reflects \(reflected) of its transactions"
                evidence.append("\(label): writer \(match.writer) \(description), but \(acked) were acknowledged before the backup began; first missing: "
                    + missing.prefix(3).map { tx in "tx \(tx.seq) (\(tx.ops.map { "\($0.op) \($0.entity) \($0.id.uuidString)" }.joined(separator: ", ")))" }.joined(separator: "; "))
            }
        }
        if evidence.isEmpty { return Verdict("wal-content-carried", .held, "\(label): every acknowledged transaction is in") }
        return Verdict("wal-content-carried", .violated, "\(label): acknowledged transactions missing", evidence: evidence)
    }

    /// For a backup that cannot be opened at all (a main file copied after a checkpoint that stopped short can be
    /// malformed): none of the transactions acknowledged before it began can be read back from it. Held only
    /// when there were none.
    static func unreadable(oracle: Oracle, backupStart: Double, label: String) -> Verdict {
        let acked = oracle.writers.map { writer in oracle.sequence(of: writer).prefix { $0.ackAt.map { $0 < backupStart } ?? false }.count }.reduce(0, +)
        if acked == 0 { return Verdict("wal-content-carried", .held, "\(label): unreadable, but no transaction was acknowledged before it began") }
        return Verdict("wal-content-carried", .violated, "\(label): the backup cannot be opened",
                       evidence: ["\(label): cannot be opened as a store, so none of the \(acked) transaction(s) acknowledged before the backup began can be read back from it"])
    }

    func notExercised(_ run: JudgedRun) -> String { "no completed backup in this run" }
}
