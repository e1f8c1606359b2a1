import Foundation

/// `restore-at-time`: a store restored to the moment T (a point-in-time restore such as Litestream's
/// `-timestamp`) holds, for every writer, exactly the transactions acknowledged by then, give or take the one in
/// flight at that moment. Objects of later transactions are the finding, and so are acknowledged ones missing.
struct RestoreAtTime: Invariant {
    let name = "restore-at-time"
    let fix = "restore to the requested moment exactly: keep every segment up to it and none after"
    let consequence = "the restore does not bring back the moment asked for: commits missing or too many"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.restores.compactMap { step in
            guard step.succeeded, let restore = step.restore, let at = restore.atTime else { return nil }
            guard let state = restore.live.state?.value else {
                return Verdict(name, .violated, "\(step.label): the restored store cannot be read", evidence: ["\(step.label): \(restore.live.state?.error ?? "?")"])
            }
            // The round running at that moment: its writers' histories on top of the store it began from.
            return Self.verdict(state, oracle: run.oracle(round: run.roundNumber(at: at)), at: at, label: step.label)
        }
    }

    static func verdict(_ state: StoreState, oracle: Oracle, at: Double, label: String) -> Verdict {
        var evidence: [String] = []
        for match in oracle.match(state) {
            let sequence = oracle.sequence(of: match.writer)
            let acknowledged = sequence.prefix { ($0.ackAt ?? .infinity) <= at }.count
            let begun = sequence.prefix { $0.intentAt <= at }.count
            guard !match.prefixes.contains(where: { (acknowledged...max(acknowledged, begun)).contains($0) }) else { continue }
            let found = match.prefixes.isEmpty ? "no prefix of its history" : "its first \(match.prefixes.max() ?? 0) transaction(s)"
            evidence.append("\(label): writer \(match.writer) shows \(found); at \(String(format: "%.3f", at)) s it had \(acknowledged) acknowledged (\(begun) begun)")
            evidence += match.mismatches.prefix(3).map { "\(label): \($0)" }
        }
        evidence += oracle.strangers(state).prefix(5).map { "\(label): \($0)" }
        if evidence.isEmpty {
            return Verdict("restore-at-time", .held, "\(label): every writer's history as it stood at \(String(format: "%.3f", at)) s")
        }
        return Verdict("restore-at-time", .violated, "\(label): not the store as it was at \(String(format: "%.3f", at)) s", evidence: evidence)
    }

    func notExercised(_ run: JudgedRun) -> String { "no point-in-time restore (a restore with at_time) in this run" }
}
