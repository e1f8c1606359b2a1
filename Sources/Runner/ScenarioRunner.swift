import Checks
import ChildProcesses
import FaultFS
import Foundation
import Reporting
import Scenario
import StoreModel
import Strategies
import Workload

/// Runs one scenario: generates the live store, starts the writer processes, fires the scheduled backups,
/// restores and crashes while they write, then checks every invariant against the writers' histories.
///
/// Everything that touches the store runs in a child process (writers, each backup and restore), so a crash can
/// kill exactly the processes holding the store; the runner itself only schedules, watches and checks.
public final class ScenarioRunner {
    public struct Settings: Sendable {
        public var reportsRoot: URL
        public var scratchRoot: URL
        public var keepScratch = false
        /// Progress lines (the CLI prints them on a TTY).
        public var progress: (@Sendable (String) -> Void)?
        /// Makes the store volume; plain directories by default, FaultFS where the scenario needs it.
        public var makeVolume: (@Sendable (Scenario, URL) throws -> any StoreVolume)?
        /// Called once the live store is generated, before the writers start, with the volume, the store and the
        /// run's clock (seconds since the run began): where crash-state enumeration takes its starting snapshot.
        public var afterGeneration: (@Sendable (any StoreVolume, URL, Double) throws -> Void)?

        public init(reportsRoot: URL, scratchRoot: URL) {
            self.reportsRoot = reportsRoot
            self.scratchRoot = scratchRoot
        }

        /// Settings from command-line paths: scratch defaults to `$TMPDIR/lifeboat-scratch`, where the pid file of
        /// every run's children lives too, so a later run can remove orphans.
        public static func from(reports: URL, scratch: URL?) -> Settings {
            Settings(reportsRoot: reports,
                     scratchRoot: scratch ?? FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-scratch"))
        }
    }

    let scenario: Scenario
    let scenarioFile: String
    let settings: Settings
    let executable: URL
    var epoch = Date().timeIntervalSince1970
    /// What the run observed and measured, and the run's store of truth: every event, operation, fault, error
    /// and measurement is written here when it happens, never kept beside it and copied in at the end. It is the
    /// judge's only input (Checks/Record) and the reports' only source.
    var record: RunRecord
    var log: [String] = []
    /// The rounds of writers (ScenarioRunner+Rounds.swift): one, or one more after each restore with
    /// `writers.after_restore: continue`; each holds the live store as the restore that ended it found it.
    var rounds: [WriterRoundState] = []
    /// Every writer process started so far, of every round.
    var writerChildren: [ChildRegistry.Child] = []
    /// What the last crash on a FaultFS volume dropped, from its op log, and the volume's root: the causes of
    /// durability findings (ScenarioRunner+Causes).
    var crashLoss: (loss: CrashLoss, root: URL, log: URL)?
    var liveAtStart = StoreState()
    /// Children of the run, for naming the process behind a fault; coverage read before the unmount; whether a
    /// `crash` fault rule crashed the volume (see ScenarioRunner+FaultCrash).
    var childRegistry: ChildRegistry?
    var crashedByRule = false
    let sidecarState = SidecarState()
    /// Where the CloudKit steps left the live store and the zone (Events/CloudStepEvent.swift).
    let cloudState = CloudRunState()
    /// Where the live store is now: moved by `relocate` steps (ScenarioRunner+Relocation.swift).
    let liveLocation = LiveLocation()
    /// Second devices on the run's iCloud account (Events/CloudDeviceEvent.swift).
    let cloudDevices = CloudDevices()
    /// Fault rules armed for one child or while one sidecar runs (ScenarioRunner+ScopedFaults.swift).
    let scopedFaults = ScopedFaults()
    /// The planned events and when each comes due (Timeline.swift); the schedulers dispatch what it says is due.
    var timeline: Timeline
    /// The run's scratch directory (kept after the run only with `keepScratch`).
    public private(set) var scratchDirectory: URL?

    public init(scenario: Scenario, file: String, settings: Settings) throws {
        self.scenario = scenario
        scenarioFile = file
        self.settings = settings
        executable = try LifeboatExecutable.locate()
        timeline = Timeline(scenario)
        record = RunRecord(plan: Self.judgingPlan(scenario, file: file))
    }

    func now() -> Double { Date().timeIntervalSince1970 - epoch }

    func note(_ actor: String, _ kind: TimelineEvent.Kind, _ detail: String) {
        record.events.append(TimelineEvent(t: now(), actor: actor, kind: kind, detail: detail))
        let line = String(format: "%8.3f  %@  %@", now(), actor, detail)
        log.append(line)
        settings.progress?(line)
    }

    /// Runs the scenario and writes its reports; returns the result.
    public func run() throws -> (RunResult, RunDirectory) {
        let runDirectory = try RunDirectory.create(root: settings.reportsRoot)
        let scratch = settings.scratchRoot.appendingPathComponent("run-\(runDirectory.id)")
        scratchDirectory = scratch
        let pidFile = settings.scratchRoot.appendingPathComponent("run-\(runDirectory.id).pids")
        let leftovers = ChildRegistry.reapDeadRuns(in: settings.scratchRoot)
        epoch = Date().timeIntervalSince1970
        let startedAt = ISO8601DateFormatter().string(from: Date())
        if leftovers.processes + leftovers.mounts + leftovers.directories > 0 {
            note("runner", .note, "cleaned up after a run that died: \(leftovers.processes) process(es) killed, \(leftovers.mounts) FaultFS mount(s) cleared, \(leftovers.directories) scratch director(ies) removed")
        }
        defer { if !settings.keepScratch { try? FileManager.default.removeItem(at: scratch) } }
        // Child logs go in the run directory: evidence quotes a command's head and tail, the log keeps all of it.
        let children = try ChildRegistry(pidFile: pidFile, logDirectory: runDirectory.url.appendingPathComponent("logs"))
        defer { children.finish() }
        childRegistry = children
        let volume = try (settings.makeVolume ?? StoreVolumes.make)(scenario, scratch.appendingPathComponent("store"))
        children.syncShim = volume.syncShim(besides: executable)
        if volume is FaultFSVolume, children.syncShim == nil {
            note("runner", .note, "\(SyncShim.libraryName) not found beside \(executable.path): sync(2)/syncfs(2) of children will not reach FaultFS (build it with `swift build`)")
        }
        defer {
            // Children hold files on the volume: they go first, then the unmount.
            children.finish()
            try? volume.close()
        }
        try (volume as? FaultFSVolume)?.configure(device: scenario.faults.device)
        let live = volume.directory.appendingPathComponent("Library.sqlite")
        let history = scratch.appendingPathComponent("history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        do {
            try execute(live: live, history: history, scratch: scratch, volume: volume, children: children)
        } catch {
            record.errors.append("\(error)")
            note("runner", .error, "\(error)")
            if record.environmentError == nil { record.environmentError = Self.environmentReason(error) }
        }
        stopSidecars()
        record.coverage = try? (volume as? FaultFSVolume)?.runCoverage()
        if let faultFS = volume as? FaultFSVolume, let database = faultFS.volumePath(of: currentLive(live)) {
            let started = Date()
            record.activity = faultFS.storeActivity(database: database, now: now()) { self.childRegistry?.name(ofAny: $0) }
            if let activity = record.activity {
                note("runner", .note, String(format: "store activity from the op log in %.2f s: %d -wal samples, %d checkpoint(s), %d program fsync(s)",
                                             Date().timeIntervalSince(started), activity.walBytes.count, activity.checkpoints.count, activity.fsyncs.count))
            }
        }
        children.killAll()
        if record.environmentError == nil, let reason = harnessChildFailure() {
            record.errors.append(reason)
            record.environmentError = reason
        }
        completeRecord(history: history, live: currentLive(live), runID: runDirectory.id, startedAt: startedAt)
        record.interruption = Interruption.description
        let result = RunResult.judged(record)
        try RunReports.write(result, record: record, scenario: scenario, log: log, to: runDirectory)
        copySidecarLogs(to: runDirectory)
        try runDirectory.markLatest()
        return (result, runDirectory)
    }

    func execute(live: URL, history: URL, scratch: URL, volume: any StoreVolume, children: ChildRegistry) throws {
        try preflightPrograms(environment: toolEnvironment(live: live, scratch: scratch, volume: volume))
        var storeOptions = StoreOptions()
        storeOptions.journalMode = StoreOptions.JournalMode(rawValue: scenario.store.journalMode) ?? .wal
        storeOptions.incrementalAutoVacuum = scenario.store.autoVacuum == "incremental"
        if scenario.store.fresh {
            // No store yet: the first writer's open creates it (the one creation path, `PersistentStore`).
            note("runner", .start, "no store on \(volume.label): the first writer creates it")
        } else if let from = scenario.store.from {
            note("runner", .start, "copying \(from) on \(volume.label)")
            try UserStoreCopy.copy(URL(fileURLWithPath: from), to: live)
        } else {
            note("runner", .start, "generating \(scenario.store.objects) objects on \(volume.label)")
            var generator = StoreGenerator(objects: scenario.store.objects, blobFraction: scenario.store.blobFraction,
                                           blobSize: scenario.store.blobSize, seed: scenario.seed)
            generator.history = scenario.store.history
            generator.inheritance = scenario.store.inheritance
            generator.cloudKit = scenario.store.cloudkit
            generator.freeSpace = scenario.store.freeSpace
            try generator.generate(at: live, options: storeOptions)
        }
        liveAtStart = scenario.store.fresh ? StoreState() : try StoreState.read(live)
        try settings.afterGeneration?(volume, live, now())
        record.initial = liveAtStart.notes.merging(liveAtStart.others) { first, _ in first }
        var armed: [String: Int] = [:]
        scopeFaults(volume: volume, children: children)
        for (index, rule) in scenario.faults.rules.enumerated() where rule.duringStep == nil && !rule.isScoped {
            let id = try volume.arm(rule)
            armed[id] = index
            note("faultfs", .fault, "armed rule \(index): \(rule.ops.joined(separator: ",")) \(rule.path) -> \(rule.action)")
        }
        // Readers first: an app's UI is reading before and while the writers write.
        try startReaders(live: live, history: history, scratch: scratch, children: children, atRunStart: true)
        sidecarState.environment = toolEnvironment(live: live, scratch: scratch, volume: volume)
        sidecarState.pending = scenario.sidecars
        rounds = [WriterRoundState(number: 0, start: 0, base: record.initial, baseNotes: liveAtStart.notes.keys.sorted { $0.uuidString < $1.uuidString },
                                   liveBeforeRestore: nil)]
        try startWriters(round: 0, live: live, history: history, scratch: scratch, children: children)
        try tickSidecars(children: children, writersRunning: scenario.writers.count > 0)
        if scenario.scheduler == "turns" {
            try executeTurns(writers: writerChildren, live: live, history: history, scratch: scratch, volume: volume, children: children)
            recordFaults(armed, volume: volume)
            return
        }
        let context = eventContext(live: live, scratch: scratch, volume: volume, children: children)
        var crashed = false
        var exited = Set<Int>()
        var lastProgress = (t: now(), commits: 0)
        while !crashed {
            if try crashIfFrozen(children: children, volume: volume, live: currentLive(live)) {
                crashed = true
                break
            }
            // The list grows when a restore begins a round of writers (writers.after_restore: continue).
            for (index, writer) in writerChildren.enumerated() where !exited.contains(index) && !writer.isRunning {
                exited.insert(index)
                note(writer.name, .end, "exited with \(writer.status ?? 0)")
            }
            let running = writerChildren.contains { $0.isRunning }
            try tickSidecars(children: children, writersRunning: running)
            let commits = HistoryReader.acknowledged(in: history)
            let t = now()
            if t > scenario.timeLimit { throw RunError.timeLimit(scenario.timeLimit) }
            if Interruption.requested { throw RunError.interrupted }
            if t - lastProgress.t >= 1 {
                let rate = Double(commits - lastProgress.commits) / (t - lastProgress.t)
                settings.progress?(String(format: "%8.3f  progress  %d commits (%.0f/s), %d backup(s) and %d restore(s) done, %d fault event(s)",
                                          t, commits, rate, record.operations.filter { $0.action == "backup" }.count,
                                          record.operations.filter { $0.action == "restore" }.count, record.events.filter { $0.kind == .fault || $0.kind == .crash }.count))
                lastProgress = (t, commits)
            }
            if let event = timeline.next(commits: commits, seconds: t, writersRunning: running) {
                if try dispatch(event, context) { crashed = true; break }
                continue
            }
            if !running && timeline.isFinished { break }
            // Entries at a time still come due once the writers are done (an idle store, a sidecar's schedule).
            if !running && !timeline.hasEntriesDueLater {
                record.errors += timeline.neverDue
                break
            }
            usleep(10_000)
        }
        for (index, writer) in writerChildren.enumerated() where !crashed && !exited.contains(index) {
            _ = try children.wait(writer, timeout: max(1, scenario.timeLimit - now()))
            note(writer.name, .end, "exited with \(writer.status ?? 0)")
        }
        if crashed {
            // What is left of the timeline after a crash runs against the recovered store.
            timeline.cancelCrash()
            while let event = timeline.dueStep(commits: Int.max, seconds: .infinity, writersRunning: false) {
                try checkDeadline()
                _ = try dispatch(event, context)
            }
        }
        recordFaults(armed, volume: volume)
    }

    /// The live store's metadata for `metadata-preserved`. A fresh store has none at the start (its first writer
    /// makes it), so it is read, from a private copy, the first time a backup needs it; its objects stay out of
    /// `liveAtStart`, which holds the store's initial objects.
    func measureLiveMetadata(_ live: URL) {
        if scenario.store.fresh, liveAtStart.versionHashes.isEmpty, let made = try? StoreState.read(live) {
            liveAtStart.versionHashes = made.versionHashes
            liveAtStart.storeUUID = made.storeUUID
        }
        var metadata = StoreState()
        metadata.versionHashes = liveAtStart.versionHashes
        metadata.storeUUID = liveAtStart.storeUUID
        record.liveMetadata = metadata
    }

    func recordFaults(_ armed: [String: Int], volume: any StoreVolume) {
        let fired = (try? volume.firedCounts()) ?? [:]
        let hits = (volume as? FaultFSVolume)?.faultHits { self.childRegistry?.name(ofAny: $0) } ?? [:]
        for (id, index) in armed.merging(scopedFaults.armed, uniquingKeysWith: { first, _ in first }).sorted(by: { $0.value < $1.value }) {
            let rule = scenario.faults.rules[index]
            var summary = FaultSummary(name: "rule \(index)", fired: fired[id] ?? 0,
                                       detail: "\(rule.ops.joined(separator: ",")) \(rule.path) -> \(rule.action)")
            summary.rule = index
            summary.hit = hits[id]
            record.faults.append(summary)
        }
    }
}
