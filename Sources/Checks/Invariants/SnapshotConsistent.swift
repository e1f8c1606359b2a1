import Foundation

/// `snapshot-consistent`: every backup equals the history's state after some prefix of each writer's commits,
/// with nothing begun after the copy ended and the initial objects unchanged.
struct SnapshotConsistent: Invariant {
    let name = "snapshot-consistent"
    let fix = "copy one snapshot: through SQLite (backup API, VACUUM INTO) or the database and its -wal under one lock"
    let consequence = "the backup mixes two moments of the store: some commits kept, earlier ones lost"
    let severity = Severity.damaged

    func check(_ run: JudgedRun) -> [Verdict] {
        run.backups.compactMap { step in
            guard let state = step.backup?.store.state?.value else { return nil }
            let oracle = run.oracle(round: step.round)
            return Self.verdict(oracle.match(state), oracle: oracle, state: state, end: step.end, label: step.label)
        }
    }

    static func verdict(_ matches: [Oracle.Match], oracle: Oracle, state: StoreState, end: Double, label: String) -> Verdict {
        var evidence: [String] = []
        for match in matches {
            if match.prefixes.isEmpty {
                evidence.append("\(label): writer \(match.writer): the store matches no prefix of its \(match.sequenceLength) transactions")
                evidence += match.mismatches
            } else if let low = match.prefixes.min(), low > 0 {
                let sequence = oracle.sequence(of: match.writer)
                if sequence[low - 1].intentAt > end {
                    evidence.append("\(label): writer \(match.writer): contains tx \(sequence[low - 1].seq), begun at \(String(format: "%.3f", sequence[low - 1].intentAt)) s, after the copy ended at \(String(format: "%.3f", end)) s")
                }
            }
        }
        evidence += oracle.strangers(state).map { "\(label): \($0)" }
        if evidence.isEmpty { return Verdict("snapshot-consistent", .held, "\(label): a prefix of every writer's commits") }
        return Verdict("snapshot-consistent", .violated, "\(label): not a state the history can explain", evidence: evidence)
    }

    func notExercised(_ run: JudgedRun) -> String { "no completed backup in this run" }
}
