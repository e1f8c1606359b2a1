import Checks
import Foundation
import Scenario
import StoreModel
import Workload

/// The run's last measurements, taken once every process has ended: the writers' histories, the readers'
/// snapshots, the live store at the end, how the app's processes ended, the backups read again after a failed
/// step, the moves, the commit stalls, the step metrics and the backup area; and the run's own facts. Each
/// aspect is its own file (`RunEnd+*.swift`); the engine calls `measure` once, as its last step. What notes a line
/// in the timeline (the readers' snapshots) or reads the record is read when the value is made, before the
/// record is completed.
struct RunEnd {
    let scenario: Scenario
    let history: URL
    /// The live store where the app uses it at the end (after every move).
    let live: URL
    let writers: WriterRounds
    let sidecars: Sidecars
    let location: LiveLocation
    let children: ChildRegistry?
    let now: Double
    private let rounds: [RoundRecord]
    private let readerSnapshots: [ReaderSnapshot]?

    init(scenario: Scenario, history: URL, live: URL, writers: WriterRounds, readers: RunReaders, sidecars: Sidecars,
         location: LiveLocation, children: ChildRegistry?, now: Double) {
        (self.scenario, self.history, self.live, self.writers, self.sidecars) = (scenario, history, live, writers, sidecars)
        (self.location, self.children, self.now) = (location, children, now)
        rounds = writers.recorded
        readerSnapshots = readers.snapshots(history: history)
    }

    func measure(_ record: inout RunRecord, runID: String, startedAt: String) {
        record.runID = runID
        record.startedAt = startedAt
        let transactions = HistoryReader.transactions(in: history)
        record.transactions = transactions
        record.rounds = rounds
        record.readerSnapshots = readerSnapshots
        // The live store as the last round left it, unless a restore of that round read it first.
        if writers.rounds.last?.liveBeforeRestore == nil {
            record.liveAtEnd = Measure.store(live, label: "live store at the end", state: true)
        }
        record.processes = Self.appProcessExits(children)
        Self.measureBackupsAfterFailedSteps(&record, scenario: scenario)
        record.relocations = relocations()
        record.stalls = CommitStalls.figures(steps: record.steps, transactions: transactions)
        Self.measureStepMetrics(&record, scenario: scenario)
        record.backupArea = sidecars.backupArea(now: now)
        record.writers = Self.writerSummaries(transactions)
        var metrics: [String: Double] = ["commits": Double(transactions.filter { $0.outcome == .committed }.count)]
        metrics["commitsPerSecond"] = metrics["commits"]! / max(0.001, record.writers.compactMap(\.lastCommit).max() ?? 1)
        for op in record.operations { if let peak = op.details["peakRSSKiB"].flatMap(Double.init) { metrics["\(op.name).peakRSSKiB"] = peak } }
        metrics["storeBytes"] = Double((StoreFiles.size(live) ?? 0) + (StoreFiles.size(StoreFiles(live).wal) ?? 0))
        record.metrics = metrics
        record.seconds = now
    }

    /// Each writer's commits, failures and commit times (at most about 400 of them, evenly spread).
    static func writerSummaries(_ transactions: [Transaction]) -> [WriterSummary] {
        Set(transactions.map(\.writer)).sorted().map { writer in
            let mine = transactions.filter { $0.writer == writer }
            let commits = mine.compactMap(\.ackAt)
            let stride = max(1, commits.count / 400)
            return WriterSummary(writer: writer, committed: commits.count, failed: mine.filter { $0.outcome == .failed }.count,
                                 inFlight: mine.filter { $0.outcome == .inFlight }.count, firstCommit: commits.min(), lastCommit: commits.max(),
                                 commitTimes: commits.enumerated().filter { $0.offset % stride == 0 }.map(\.element))
        }
    }
}

extension JudgingPlan {
    /// What the judge is asked, from the scenario.
    init(_ scenario: Scenario, file: String) {
        self.init(scenario: scenario.name, scenarioFile: file, description: scenario.description, seed: scenario.seed,
                  invariants: scenario.invariants, expectation: scenario.expect.description,
                  synchronous: scenario.writers.synchronous, backupsOnVolume: scenario.faults.backupsOnVolume,
                  metricBounds: scenario.expectMetrics.map { MetricsCheck.Bound(metric: $0.metric, step: $0.step, to: $0.to, min: $0.min, max: $0.max) })
    }
}
