import Foundation

/// `live-store-unaffected`: the app's writers and readers saw no errors (SQLITE_BUSY waits aside) and ran to their
/// end, and the live store holds exactly what they committed: at the end of each round of writers (as the
/// restore that ended it found it, or at the end of the run). After a crash the store must still be a prefix
/// state; attachments the app's own never-synced operations lost are set aside (`app-durable`'s).
struct LiveStoreUnaffected: Invariant {
    let name = "live-store-unaffected"
    let fix = "do not hold SQLite's locks for long, and never remove or replace the live store's files while the app runs"
    let consequence = "the app's own saves failed or vanished while the program ran"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        let everyone = Self.measured(run, settingAsideAppsLosses: false)
        let verdicts = Self.measured(run, settingAsideAppsLosses: true).enumerated().map { position, entry -> Verdict in
            var verdict = entry.verdict
            if verdict.status == .held, entry.crashed, position < everyone.count, everyone[position].verdict.status == .violated {
                verdict.summary += "; what else the crash took is the app's own (see app-durable)"
            }
            return verdict
        }
        // A writer that ended on its own with an error never finished what the app asked of it.
        return verdicts + run.processExits.filter { $0.invariant == name }
    }

    /// One verdict per round of writers whose live store was read, whoever caused a loss, and whether the round
    /// ended in the crash.
    /// After a crash the round's store is read as the crash left it, with the attachments the app's own lost
    /// operations touched set aside when `settingAsideAppsLosses` (the program's verdict).
    static func measured(_ run: JudgedRun, settingAsideAppsLosses: Bool) -> [(verdict: Verdict, crashed: Bool)] {
        let record = run.record
        let rounds = record.rounds.isEmpty ? [RoundRecord(number: 0, start: 0, base: record.initial)] : record.rounds
        var result: [(Verdict, Bool)] = []
        for (position, round) in rounds.enumerated() {
            let last = position == rounds.count - 1
            let crashedHere = record.crash.map { run.roundNumber(at: $0.at) == round.number } ?? false
            let setAside = settingAsideAppsLosses && crashedHere ? record.crash?.liveWithoutAppsLosses?.value : nil
            guard let state = round.liveBeforeRestore ?? (last ? setAside ?? record.liveAtEnd?.state?.value : nil) else { continue }
            guard !crashedHere || round.liveBeforeRestore == nil else { continue }
            let oracle = run.oracle(round: position)
            var verdict = verdict(oracle.match(state), oracle: oracle, state: state, crashed: crashedHere, readAt: round.liveBeforeRestoreAt)
            if verdict.status == .violated, crashedHere { verdict.cause = record.crash?.liveLoss?.cause }
            result.append((verdict, crashedHere))
        }
        return result
    }

    /// `readAt`: when the state was read while a writer could still commit (the store as a restore found it,
    /// with writers keeping their connections across it): it must then hold at least every transaction
    /// acknowledged before that moment, and be a prefix.
    static func verdict(_ matches: [Oracle.Match], oracle: Oracle, state: StoreState, crashed: Bool, readAt: Double? = nil) -> Verdict {
        // Saves that failed because the app's coordinator held no store are the app's own (saves-after-migrate).
        var evidence: [String] = oracle.transactions.filter { $0.outcome == .failed && !SavesAfterMigrate.isNoStoreFailure($0) }.prefix(10).map {
            "writer \($0.writer) tx \($0.seq) failed: \($0.error ?? "?")"
        }
        for match in matches {
            let sequence = oracle.sequence(of: match.writer)
            let committed = sequence.filter { $0.outcome == .committed }.count
            let before = readAt.map { at in sequence.filter { $0.outcome == .committed && ($0.ackAt ?? .infinity) < at }.count } ?? committed
            if before < committed {
                if (match.prefixes.max() ?? -1) < before {
                    evidence.append("writer \(match.writer): the live store does not hold the \(before) transactions it had acknowledged when the store was read")
                    evidence += match.mismatches
                }
            } else if !match.prefixes.contains(committed), !crashed || match.prefixes.isEmpty,
                      // A writer stopped during a transaction (a move stops the app first): that one may be in.
                      !(sequence.last?.outcome == .inFlight && match.prefixes.contains(committed + 1)) {
                evidence.append("writer \(match.writer): the live store does not hold its \(committed) committed transactions")
                evidence += match.mismatches
            }
        }
        evidence += oracle.strangers(state).map { "live store: \($0)" }
        if evidence.isEmpty {
            let noStore = oracle.transactions.filter(SavesAfterMigrate.isNoStoreFailure).count
            return Verdict("live-store-unaffected", .held, noStore == 0 ? "writers saw no errors; the live store holds what they committed"
                           : "writers saw no errors but \(noStore) save(s) that found no store (saves-after-migrate); the live store holds what they committed")
        }
        return Verdict("live-store-unaffected", .violated, "writers were affected", evidence: evidence)
    }

    func notExercised(_ run: JudgedRun) -> String { "the live store was never read after its writers (it could not be read at the end)" }
}
