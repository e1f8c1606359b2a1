import Checks
import Foundation
import Reporting
import Scenario
import StoreModel
import Workload

extension ScenarioRunner {
    /// Checks the history-based invariants, folds every check into one verdict per invariant, and builds the result.
    func finish(history: URL, live: URL, runID: String, startedAt: String) -> RunResult {
        let transactions = withoutFreezeArtifacts(HistoryReader.transactions(in: history))
        // One oracle per round of writers (one unless writers.after_restore: continue): each store is held to
        // the round it belongs to, the store that round began from plus the commits acknowledged in it.
        let oracles = roundOracles(transactions)
        for (round, oracle) in oracles.enumerated() { errors += oracle.collisions.map { "round \(round): \($0)" } }
        checkReaders(history: history, oracles: oracles)
        for backup in backups {
            let oracle = oracles[min(backup.round, oracles.count - 1)]
            let label = "\(backup.name) (\(scenario.schedule[backup.index].strategy))"
            guard let state = backup.state else {
                record([Invariants.walContentUnreadable(oracle: oracle, backupStart: backup.start, label: label)])
                continue
            }
            let matches = oracle.match(state)
            record([
                Invariants.walContentCarried(matches, oracle: oracle, backupStart: backup.start, label: label),
                Invariants.snapshotConsistent(matches, oracle: oracle, state: state, end: backup.end, label: label),
            ])
        }
        if let crash, let state = crash.state {
            let oracle = oracles[min(roundNumber(at: crash.at), oracles.count - 1)]
            record(withCause([Invariants.durableAfterCrash(oracle.match(state), oracle: oracle, crashAt: crash.at,
                                                           synchronous: scenario.writers.synchronous, fault: crash.description)],
                             store: live, what: "the live store"))
        }
        // The live store as each round left it: before the restore that ended the round, or now for the last.
        let finished = rounds.isEmpty ? [currentRound] : rounds
        for (position, round) in finished.enumerated() {
            let last = position == finished.count - 1
            guard let state = round.liveBeforeRestore ?? (last ? try? StoreState.read(live) : nil) else { continue }
            let crashedHere = crash.map { roundNumber(at: $0.at) == round.number } ?? false
            if !crashedHere || round.liveBeforeRestore == nil {
                let oracle = oracles[min(position, oracles.count - 1)]
                record([Invariants.liveStoreUnaffected(oracle.match(state), oracle: oracle, state: state, crashed: crashedHere,
                                                       readAt: round.liveBeforeRestoreAt)])
            }
            if last, round.liveBeforeRestore == nil { record(Invariants.storeChecks(live, label: "live store at the end")) }
        }
        recordCloudVerdicts(history: history)
        recordDeviceVerdicts()
        recordRelocationVerdicts(transactions: transactions, oracles: oracles, history: history, finalLive: live)
        recordMetricVerdicts()
        recordProcessExits()
        recordNoRunaway(transactions: transactions)
        let selected = scenario.invariants.isEmpty ? ScenarioParser.invariantNames : scenario.invariants
        let verdicts = environmentError.map { voidedVerdicts(selected, reason: $0) } ?? selected.map { name in
            Verdict.combine(name, verdictParts[name] ?? [Verdict(name, .notApplicable, notApplicableReason(name))])
        }
        var met: Bool
        switch scenario.expect {
        case .pass: met = errors.isEmpty && verdicts.allSatisfy { $0.status != .violated }
        case .violation: met = verdicts.contains { scenario.expect.invariants.contains($0.invariant) && $0.status == .violated }
        }
        if environmentError != nil { met = false }
        let writers = Set(transactions.map(\.writer)).sorted().map { writer in
            let mine = transactions.filter { $0.writer == writer }
            let commits = mine.compactMap(\.ackAt)
            let stride = max(1, commits.count / 400)
            return WriterSummary(writer: writer, committed: commits.count, failed: mine.filter { $0.outcome == .failed }.count,
                                 inFlight: mine.filter { $0.outcome == .inFlight }.count, firstCommit: commits.min(), lastCommit: commits.max(),
                                 commitTimes: commits.enumerated().filter { $0.offset % stride == 0 }.map(\.element))
        }
        var metrics: [String: Double] = ["commits": Double(transactions.filter { $0.outcome == .committed }.count)]
        metrics["commitsPerSecond"] = metrics["commits"]! / max(0.001, writers.compactMap(\.lastCommit).max() ?? 1)
        for op in operations { if let peak = op.details["peakRSSKiB"].flatMap(Double.init) { metrics["\(op.name).peakRSSKiB"] = peak } }
        metrics["storeBytes"] = Double((StoreFiles.size(live) ?? 0) + (StoreFiles.size(StoreFiles(live).wal) ?? 0))
        var result = RunResult(runID: runID, scenario: scenario.name, scenarioFile: scenarioFile, description: scenario.description,
                               seed: scenario.seed, expectation: scenario.expect.description, expectationMet: met, startedAt: startedAt,
                               seconds: now(), verdicts: verdicts, events: events, writers: writers, operations: operations,
                               faults: faultSummaries, metrics: metrics, errors: errors, coverage: coverage)
        result.environmentError = environmentError
        return result
    }

    func notApplicableReason(_ invariant: String) -> String {
        switch invariant {
        case "durable-after-crash": "no crash in this run"
        case "restore-equals-backup", "restore-opens": "no completed restore in this run"
        case "wal-content-carried", "snapshot-consistent", "metadata-preserved": "no completed backup in this run"
        case "backup-completes": "no backup in this run"
        case "reader-consistent": "no readers in this run (readers: {count, hold, every})"
        case "restore-durable": "no crash after a finished restore in this run"
        case "restore-at-time": "no point-in-time restore (a restore with at_time) in this run"
        case "connections-agree": "no writer or reader kept its connection across a restore in this run"
        case "relocation-carries-commits": "no relocate step finished in this run"
        case "metrics-within-bounds": "no expect_metrics in this scenario"
        case "backup-durable": "no crash after a backup on the store's volume (faults.backups_on_volume)"
        case "no-runaway": scenario.faults.backupsOnVolume ? "the backup area is on the store's FaultFS volume (faults.backups_on_volume), where it is not sampled"
            : "no sidecar (a continuous backup tool) in this run"
        default: "nothing in this run to check it on"
        }
    }
}

/// Writes every report of a run into its directory.
public enum RunReports {
    static func write(_ result: RunResult, scenario: Scenario, log: [String], to run: RunDirectory) throws {
        try run.write("report.json", try JSONReport.render(result))
        try run.write("report.md", MarkdownReport.render(result, repro: "\(run.url.path)/repro.yaml"))
        try run.write("report.html", HTMLReport.render(result, repro: "\(run.url.path)/repro.yaml"))
        try run.write("junit.xml", JUnitReport.render([result]))
        try run.write("run.log", log.joined(separator: "\n") + "\n")
        try run.write("repro.yaml", "# Replay: lifeboat run \(run.url.path)/repro.yaml\n" + ScenarioYAML.render(replayable(scenario, file: result.scenarioFile)))
    }

    /// The scenario with scripts named through LIFEBOAT_SCENARIO_DIR pinned to the original directory, since
    /// the repro lives in the report directory.
    public static func replayable(_ scenario: Scenario, file: String) -> Scenario {
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var copy = scenario
        for index in copy.schedule.indices {
            copy.schedule[index].command = copy.schedule[index].command?
                .replacingOccurrences(of: "${LIFEBOAT_SCENARIO_DIR}", with: directory)
                .replacingOccurrences(of: "$LIFEBOAT_SCENARIO_DIR", with: directory)
        }
        for index in copy.sidecars.indices {
            copy.sidecars[index].command = copy.sidecars[index].command
                .replacingOccurrences(of: "${LIFEBOAT_SCENARIO_DIR}", with: directory)
                .replacingOccurrences(of: "$LIFEBOAT_SCENARIO_DIR", with: directory)
        }
        return copy
    }
}
