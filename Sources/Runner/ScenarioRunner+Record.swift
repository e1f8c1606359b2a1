import Checks
import Foundation
import Reporting
import Scenario
import StoreModel
import Workload

extension ScenarioRunner {
    /// What the judge is asked, from the scenario.
    static func judgingPlan(_ scenario: Scenario, file: String) -> JudgingPlan {
        JudgingPlan(scenario: scenario.name, scenarioFile: file, description: scenario.description, seed: scenario.seed,
                    invariants: scenario.invariants, expectation: scenario.expect.description,
                    synchronous: scenario.writers.synchronous, backupsOnVolume: scenario.faults.backupsOnVolume,
                    metricBounds: scenario.expectMetrics.map { MetricsCheck.Bound(metric: $0.metric, step: $0.step, to: $0.to, min: $0.min, max: $0.max) })
    }

    /// The last measurements of the run (the writers' histories, the readers' snapshots, the live store at the
    /// end, the zone after the last sync, the backup area), and the run's own facts, into the record.
    func completeRecord(history: URL, live: URL, runID: String, startedAt: String) {
        record.runID = runID
        record.startedAt = startedAt
        let transactions = HistoryReader.transactions(in: history)
        record.transactions = transactions
        record.rounds = (rounds.isEmpty ? [currentRound] : rounds).map {
            RoundRecord(number: $0.number, start: $0.start, base: $0.base, liveBeforeRestore: $0.liveBeforeRestore, liveBeforeRestoreAt: $0.liveBeforeRestoreAt)
        }
        record.readerSnapshots = readerSnapshots(history: history)
        // The live store as the last round left it, unless a restore of that round read it first.
        if rounds.last?.liveBeforeRestore == nil {
            record.liveAtEnd = Measure.store(live, label: "live store at the end", state: true)
        }
        record.processes = appProcessExits()
        measureBackupsAfterFailedSteps()
        measureRelocations(history: history, finalLive: live)
        record.stalls = CommitStalls.figures(steps: record.steps, transactions: transactions)
        measureStepMetrics()
        if samplesBackupArea, !sidecarState.backupSizes.isEmpty {
            record.backupArea = BackupAreaRecord(samples: sidecarState.backupSizes, sidecarsEnded: sidecarState.entries.compactMap(\.end).max() ?? now())
        }
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
        for op in record.operations { if let peak = op.details["peakRSSKiB"].flatMap(Double.init) { metrics["\(op.name).peakRSSKiB"] = peak } }
        metrics["storeBytes"] = Double((StoreFiles.size(live) ?? 0) + (StoreFiles.size(StoreFiles(live).wal) ?? 0))
        record.writers = writers
        record.metrics = metrics
        record.seconds = now()
    }

    /// How each writer and reader ended: on its own with a status, or killed by the runner (the crash, a
    /// restore that stops the app, the end of the run).
    func appProcessExits() -> [ProcessExit] {
        (childRegistry?.all ?? []).filter { $0.name.hasPrefix("writer-") || $0.name.hasPrefix("reader-") }.compactMap { child in
            guard let termination = child.process.termination else { return nil }
            let signal = termination.signal
            return ProcessExit(name: child.name, status: signal == nil ? termination.exitCode : nil, signal: signal,
                               killedByRunner: signal == SIGKILL || signal == SIGTERM,
                               outputTail: child.output.split(separator: "\n").suffix(2).joined(separator: " | "))
        }
    }
}
