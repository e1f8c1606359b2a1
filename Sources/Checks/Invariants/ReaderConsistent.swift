import Foundation

/// `reader-consistent`: every snapshot a reader took is a prefix of every writer's commits, holds every
/// transaction acknowledged before its read transaction began, and none begun after it ended; each snapshot is
/// held to the round of writers it was taken in.
struct ReaderConsistent: Invariant {
    let name = "reader-consistent"
    let fix = "keep readers on the live store's own connections; a program must not rewrite pages under an open read transaction"
    let consequence = "a reader of the live store saw a state that never existed"
    let severity = Severity.damaged

    func check(_ run: JudgedRun) -> [Verdict] {
        guard let snapshots = run.record.readerSnapshots else { return [] }
        // A reader that ended on its own with an error read nothing more.
        let exits = run.processExits.filter { $0.invariant == name }
        let byRound = Dictionary(grouping: snapshots) { min(run.roundNumber(at: $0.began), run.oracles.count - 1) }
        if byRound.isEmpty { return [Self.verdict([], oracle: run.oracle(round: 0))] + exits }
        return byRound.sorted { $0.key < $1.key }.map { Self.verdict($0.value, oracle: run.oracle(round: $0.key)) } + exits
    }

    static func verdict(_ snapshots: [ReaderSnapshot], oracle: Oracle) -> Verdict {
        guard !snapshots.isEmpty else { return Verdict("reader-consistent", .notApplicable, "no reader took a snapshot") }
        var evidence: [String] = []
        for snapshot in snapshots {
            let label = "reader-\(snapshot.reader) at \(String(format: "%.3f", snapshot.began)) s"
            for match in oracle.match(snapshot.state) {
                let sequence = oracle.sequence(of: match.writer)
                let acked = sequence.prefix { $0.ackAt.map { $0 < snapshot.began } ?? false }.count
                let begun = sequence.prefix { $0.intentAt <= snapshot.ended }.count
                if match.prefixes.isEmpty {
                    evidence.append("\(label): writer \(match.writer): matches no prefix of its \(match.sequenceLength) transactions")
                    evidence += match.mismatches.prefix(3).map { "\(label): \($0)" }
                } else if !match.prefixes.contains(where: { $0 >= acked && $0 <= begun }) {
                    evidence.append("\(label): writer \(match.writer): shows \(match.prefixes.max() ?? 0) of its transactions; \(acked) were acknowledged before the read began and \(begun) had begun when it ended")
                }
            }
            if evidence.count >= 20 { break }
        }
        let longest = snapshots.map { $0.ended - $0.began }.max() ?? 0
        if evidence.isEmpty {
            return Verdict("reader-consistent", .held, "\(snapshots.count) reader snapshot(s), each a prefix of every writer's commits (longest read transaction \(String(format: "%.2f", longest)) s)")
        }
        return Verdict("reader-consistent", .violated, "a reader saw a state the history cannot explain", evidence: evidence)
    }

    func notExercised(_ run: JudgedRun) -> String { "no readers in this run (readers: {count, hold, every})" }
}
