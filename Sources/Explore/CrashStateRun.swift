import Checks
import FaultFS
import Foundation
import Reporting
import Runner
import Scenario
import Synchronization
import Workload

/// Runs a scenario once on FaultFS with the op log and payloads recorded, from a durable snapshot of the store
/// taken after generation, then enumerates the crash states the log allows (`CrashStateEnumerator`).
public enum CrashStateRun {
    /// What the generation hook captured: the store's database files and where the log mark is.
    final class Start: Sendable {
        let value = Mutex<(files: [String: Data], markSeq: UInt64, markTime: Double)?>(nil)
    }

    /// One recorded run, ready to enumerate (more than once: the tests compare ways of checking on one log).
    /// `remove()` deletes the run's scratch directory.
    public struct Recording {
        public let enumerator: CrashStateEnumerator
        public let result: RunResult
        public let runDirectory: RunDirectory
        /// Where the states are written while they are checked.
        public let states: URL
        let scratch: URL

        public func remove() { try? FileManager.default.removeItem(at: scratch) }
    }

    public static func run(_ scenario: Scenario, file: String, settings: ScenarioRunner.Settings, maxPoints: Int, seed: UInt64,
                           reuse: Bool = true, progress: (@Sendable (String) -> Void)? = nil) throws -> (CrashStateEnumerator.Summary, RunResult) {
        let recording = try record(scenario, file: file, settings: settings)
        defer { recording.remove() }
        let summary = try recording.enumerator.run(scratch: recording.states, maxPoints: maxPoints, seed: seed, reuse: reuse, progress: progress)
        return (summary, try recording.reportStates(summary))
    }

    public static func record(_ scenario: Scenario, file: String, settings: ScenarioRunner.Settings) throws -> Recording {
        var scenario = scenario
        scenario.faults.crash = nil
        scenario.expect = .pass
        var settings = settings
        settings.keepScratch = true
        settings.makeVolume = { scenario, directory in
            try FaultFSVolume(directory: directory, seed: scenario.seed,
                              log: directory.deletingLastPathComponent().appendingPathComponent("faultfs.oplog"), logData: true,
                              hostSync: scenario.faults.hostSync, fsyncFailure: scenario.faults.fsyncFailure)
        }
        let start = Start()
        settings.afterGeneration = { volume, live, now in
            guard let faultFS = volume as? FaultFSVolume else { throw RunError.environment("crash states need FaultFS") }
            _ = try faultFS.mount.syncAll()
            var files: [String: Data] = [:]
            for suffix in ["", "-wal", "-journal"] {
                let url = URL(fileURLWithPath: live.path + suffix)
                if let data = try? Data(contentsOf: url) { files["/" + url.lastPathComponent] = data }
            }
            let seq = try faultFS.mount.logMark("crash-states start")
            start.value.withLock { $0 = (files, seq, now) }
        }
        let run = try ScenarioRuns.run(scenario, file: file, settings: settings)
        let (result, runDirectory) = (run.result, run.directory)
        guard let scratch = run.scratch else { throw RunError.environment("the run left no scratch directory") }
        do {
            guard let (files, markSeq, markTime) = start.value.withLock({ $0 }) else {
                throw RunError.environment("the run never reached its generated store: \(result.errors.joined(separator: "; "))")
            }
            let log = scratch.appendingPathComponent("faultfs.oplog")
            let all = try OpLog.read(log)
            guard let mark = all.first(where: { $0.seq == markSeq }) else { throw RunError.environment("no log mark in \(log.path)") }
            let oracle = Oracle(transactions: HistoryReader.transactions(in: scratch.appendingPathComponent("history")), initial: [:])
            var enumerator = CrashStateEnumerator(records: all.filter { $0.seq > markSeq }, log: log, start: files,
                                                  databaseName: "/Library.sqlite", oracle: oracle, clockOffset: markTime - mark.t,
                                                  supportFolder: scratch.appendingPathComponent("store-backing/.Library_SUPPORT"))
            enumerator.restores = CrashStateRestore.of(result, oracle: oracle, scratch: scratch)
            return Recording(enumerator: enumerator, result: result, runDirectory: runDirectory,
                             states: scratch.appendingPathComponent("states"), scratch: scratch)
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }
}

extension CrashStateRun.Recording {
    /// The run's result with the states counted in its coverage, its reports written again (by the one writer,
    /// `RunReports`) to show them.
    public func reportStates(_ summary: CrashStateEnumerator.Summary) throws -> RunResult {
        var result = result
        var coverage = result.coverage ?? RunCoverage(rows: [], crashPointsAvailable: summary.persistencePoints, crashPointsExplored: 0)
        coverage.crashStatesChecked = summary.statesChecked
        coverage.crashStatesFailed = summary.statesFailed
        coverage.crashStatesExamined = summary.statesExamined
        coverage.crashStatesShortMain = summary.shortMain.states
        coverage.crashStatesShortMainFailed = summary.shortMain.failed
        result.coverage = coverage
        try RunReports.writeReports(result, to: runDirectory)
        return result
    }
}
