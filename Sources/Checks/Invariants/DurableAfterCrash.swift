import Foundation

/// `durable-after-crash`: after the power failure and SQLite's recovery, every transaction acknowledged at
/// synchronous=FULL (or EXTRA) is in the live store, and the store is a prefix state. Attachments the app's own
/// never-synced operations lost are set aside (compared by presence only): those losses are the app's
/// (`app-durable`), not the program's.
struct DurableAfterCrash: Invariant {
    let name = "durable-after-crash"
    let fix = "leave the live store's files alone: a program that deletes, renames or rewrites the store's -wal or database loses the app's commits"
    let consequence = "commits the app confirmed are gone from the live store after a crash"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        guard var verdict = Self.measured(run, settingAsideAppsLosses: true) else { return [] }
        if verdict.status == .held, Self.measured(run, settingAsideAppsLosses: false)?.status == .violated {
            verdict.summary += "; what else the crash took is the app's own (see app-durable)"
        }
        return [verdict]
    }

    /// The verdict on the live store after the crash, with the op log's cause: on the store with the app's own
    /// lost attachments set aside (the program's), or as read (everyone's).
    static func measured(_ run: JudgedRun, settingAsideAppsLosses: Bool) -> Verdict? {
        guard let crash = run.record.crash, let read = crash.live?.state?.value else { return nil }
        let state = settingAsideAppsLosses ? crash.liveWithoutAppsLosses?.value ?? read : read
        let oracle = run.oracle(round: run.roundNumber(at: crash.at))
        var verdict = verdict(oracle.match(state), oracle: oracle, crashAt: crash.at, synchronous: run.record.plan.synchronous, fault: crash.description)
        // SQLite in DELETE journal mode at synchronous=FULL commits by unlinking its journal and never syncs the
        // folder (EXTRA does): when the crash took such an unlink of the app's own, the journal comes back hot and
        // recovery rolls the commit back. If every operation the crash took was the app's, that is the app's
        // loss, judged by app-durable, never the program's. Any other unexplained loss stays the program's.
        if settingAsideAppsLosses, verdict.status == .violated, let loss = crash.liveLoss, !loss.operations.isEmpty,
           loss.operations.allSatisfy({ $0.kind == .app }),
           loss.operations.contains(where: { $0.what.hasPrefix("unlink") && $0.path.hasSuffix("-journal") }) {
            return Verdict("durable-after-crash", .held, "the crash took only the app's own unsynced operations from the live store, its journal's unlink among them (SQLite's DELETE mode at synchronous=FULL)")
        }
        if verdict.status == .violated { verdict.cause = crash.liveLoss?.cause }
        return verdict
    }

    static func verdict(_ matches: [Oracle.Match], oracle: Oracle, crashAt: Double, synchronous: String, fault: String) -> Verdict {
        guard synchronous == "full" || synchronous == "extra" else {
            return Verdict("durable-after-crash", .notApplicable, "writers ran at synchronous=\(synchronous): acknowledged does not mean durable")
        }
        var evidence: [String] = []
        for match in matches {
            let acked = oracle.sequence(of: match.writer).filter { $0.ackAt.map { $0 <= crashAt } ?? false }.count
            guard let reflected = match.prefixes.max() else {
                evidence.append("after \(fault): writer \(match.writer): the recovered store matches no prefix of its history")
                evidence += match.mismatches
                continue
            }
            if reflected < acked {
                evidence.append("after \(fault): writer \(match.writer) had \(acked) transactions acknowledged, the recovered store has \(reflected); lost from tx \(oracle.sequence(of: match.writer)[reflected].seq)")
            }
        }
        if evidence.isEmpty { return Verdict("durable-after-crash", .held, "every acknowledged transaction survived \(fault)") }
        return Verdict("durable-after-crash", .violated, "acknowledged transactions lost after \(fault)", evidence: evidence)
    }

    func notExercised(_ run: JudgedRun) -> String {
        run.record.crash == nil ? "no crash in this run" : "the live store was restored before it could be judged after the crash (the restore's invariants judge it)"
    }
}
