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

    public static func run(_ scenario: Scenario, file: String, settings: ScenarioRunner.Settings, maxPoints: Int, seed: UInt64,
                           progress: (@Sendable (String) -> Void)? = nil) throws -> (CrashStateEnumerator.Summary, RunResult) {
        var scenario = scenario
        scenario.faults.crash = nil
        scenario.expect = .pass
        var settings = settings
        settings.keepScratch = true
        settings.makeVolume = { scenario, directory in
            try FaultFSVolume(directory: directory, seed: scenario.seed,
                              log: directory.deletingLastPathComponent().appendingPathComponent("faultfs.oplog"), logData: true)
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
        let runner = try ScenarioRunner(scenario: scenario, file: file, settings: settings)
        let (result, _) = try runner.run()
        guard let scratch = runner.scratchDirectory else { throw RunError.environment("the run left no scratch directory") }
        defer { try? FileManager.default.removeItem(at: scratch) }
        guard let (files, markSeq, markTime) = start.value.withLock({ $0 }) else {
            throw RunError.environment("the run never reached its generated store: \(result.errors.joined(separator: "; "))")
        }
        let log = scratch.appendingPathComponent("faultfs.oplog")
        let all = try OpLog.read(log)
        guard let mark = all.first(where: { $0.seq == markSeq }) else { throw RunError.environment("no log mark in \(log.path)") }
        let oracle = Oracle(transactions: HistoryReader.transactions(in: scratch.appendingPathComponent("history")), initial: [:])
        let enumerator = CrashStateEnumerator(records: all.filter { $0.seq > markSeq }, log: log, start: files,
                                              databaseName: "/Library.sqlite", oracle: oracle, clockOffset: markTime - mark.t,
                                              supportFolder: scratch.appendingPathComponent("store-backing/.Library_SUPPORT"))
        let summary = try enumerator.run(scratch: scratch.appendingPathComponent("states"), maxPoints: maxPoints, seed: seed, progress: progress)
        return (summary, result)
    }
}
