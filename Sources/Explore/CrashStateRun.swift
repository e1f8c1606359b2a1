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
        let mark: Mark
        /// Kept in a `--recording` folder for other shards: `remove()` leaves it.
        var kept = false

        public func remove() { if !kept { try? FileManager.default.removeItem(at: scratch) } }
    }

    public static func run(_ scenario: Scenario, file: String, settings: ScenarioRunner.Settings, maxPoints: Int, seed: UInt64,
                           reuse: Bool = true, loop: Runner.RunLoop = Runner.RunLoop(),
                           progress: (@Sendable (String) -> Void)? = nil) throws -> (CrashStateEnumerator.Summary, RunResult) {
        let recording = try record(scenario, file: file, settings: settings)
        defer { recording.remove() }
        let summary = try recording.enumerator.run(scratch: recording.states, maxPoints: maxPoints, seed: seed, reuse: reuse,
                                                   loop: loop, progress: progress)
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
        guard let (files, markSeq, markTime) = start.value.withLock({ $0 }) else {
            try? FileManager.default.removeItem(at: scratch)
            throw RunError.environment("the run never reached its generated store: \(result.errors.joined(separator: "; "))")
        }
        do {
            return try recording(Mark(files: files, seq: markSeq, time: markTime), result: result, runDirectory: runDirectory, scratch: scratch)
        } catch {
            try? FileManager.default.removeItem(at: scratch)
            throw error
        }
    }

    /// Where the log mark is and the store's database files then (everything durable at the mark).
    struct Mark: Codable {
        var files: [String: Data]
        var seq: UInt64
        var time: Double
    }

    /// The recording of a run whose scratch folder holds its op log, histories and backing folder.
    static func recording(_ mark: Mark, result: RunResult, runDirectory: RunDirectory, scratch: URL) throws -> Recording {
        let log = scratch.appendingPathComponent("faultfs.oplog")
        let all = try OpLog.read(log)
        guard let record = all.first(where: { $0.seq == mark.seq }) else { throw RunError.environment("no log mark in \(log.path)") }
        let oracle = Oracle(transactions: HistoryReader.transactions(in: scratch.appendingPathComponent("history")), initial: [:])
        var enumerator = CrashStateEnumerator(records: all.filter { $0.seq > mark.seq }, log: log, start: mark.files,
                                              databaseName: "/Library.sqlite", oracle: oracle, clockOffset: mark.time - record.t,
                                              supportFolder: scratch.appendingPathComponent("store-backing/.Library_SUPPORT"))
        enumerator.restores = CrashStateRestore.of(result, oracle: oracle, scratch: scratch)
        return Recording(enumerator: enumerator, result: result, runDirectory: runDirectory,
                         states: scratch.appendingPathComponent("states"), scratch: scratch, mark: mark)
    }

    /// What `crash-states --recording DIR` keeps in DIR beside the run's scratch folder.
    struct Kept: Codable {
        var schema = "lifeboat.crash-states-recording/1"
        var scenario: String
        var mark: Mark
        /// The run's scratch folder and report folder.
        var scratch: String
        var run: String
    }

    static let keptFile = "recording.json"

    /// `crash-states --recording DIR`: the recording kept in `folder` when it holds one (of `scenario`: another
    /// scenario's is refused), else a new recording made there and kept, so that every shard of one enumeration
    /// enumerates the same run (two runs of a drill with concurrent writers leave different op logs).
    public static func recording(kept folder: URL, scenario: Scenario, file: String, settings: ScenarioRunner.Settings) throws -> Recording {
        let url = folder.appendingPathComponent(keptFile)
        if let data = try? Data(contentsOf: url) {
            let kept: Kept
            do { kept = try JSONDecoder().decode(Kept.self, from: data) } catch {
                throw RunError.environment("\(url.path) is no recording of crash-states --recording: \(error)")
            }
            guard kept.scenario == scenario.name else {
                throw RunError.environment("\(folder.path) holds a recording of \(kept.scenario), not \(scenario.name): give another --recording folder")
            }
            let runFolder = URL(fileURLWithPath: kept.run)
            let result = try JSONReport.decode(try Data(contentsOf: runFolder.appendingPathComponent("report.json")))
            var recording = try recording(kept.mark, result: result, runDirectory: RunDirectory(existing: runFolder),
                                          scratch: URL(fileURLWithPath: kept.scratch))
            recording.kept = true
            return recording
        }
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: folder.path), !contents.isEmpty {
            throw RunError.environment("--recording \(folder.path) is not empty and holds no \(keptFile): give an empty or new folder")
        }
        var settings = settings
        settings.scratchRoot = folder.appendingPathComponent("scratch", isDirectory: true)
        var recording = try record(scenario, file: file, settings: settings)
        recording.kept = true
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let kept = Kept(scenario: scenario.name, mark: recording.mark,
                        scratch: recording.scratch.path, run: recording.runDirectory.url.path)
        try encoder.encode(kept).write(to: url)
        return recording
    }
}

extension CrashStateRun.Recording {
    /// The run's result with the states counted in its coverage, its reports written again (by the one writer,
    /// `RunReports`) to show them.
    public func reportStates(_ summary: CrashStateEnumerator.Summary) throws -> RunResult {
        try CrashStateRun.reportStates(summary, result: result, in: runDirectory)
    }
}

extension CrashStateRun {
    /// The report of the run whose states `summary` counts, written again with them, from its folder's own
    /// `report.json` (what `lifeboat report merge` does once the shards of an enumeration are one).
    public static func reportStates(_ summary: CrashStateEnumerator.Summary, runFolder: URL) throws -> RunResult {
        let data = try Data(contentsOf: runFolder.appendingPathComponent("report.json"))
        return try reportStates(summary, result: try JSONReport.decode(data), in: RunDirectory(existing: runFolder))
    }

    static func reportStates(_ summary: CrashStateEnumerator.Summary, result: RunResult, in runDirectory: RunDirectory) throws -> RunResult {
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
