import Checks
import ChildProcesses
import FaultFS
import Foundation
import Reporting
import Scenario
import StoreModel
import Strategies
import Workload

/// The engine: runs one scenario. It generates the live store, starts the writer processes, hands each due
/// event of the timeline to its kind (Events/), and at the end takes the run's last measurements (`RunEnd`);
/// the judge and the reports then read the one record it kept (`RunJournal`).
///
/// Everything that touches the store runs in a child process (writers, each backup and restore), so a crash can
/// kill exactly the processes holding the store; the engine itself only schedules, watches and measures. Its
/// parts each own their state, in Engine/: the clock, the journal (the record), the writers' rounds, the
/// readers, the sidecars, the scoped fault rules, the crashes, where the live store is, the cloud; an event kind
/// gets them through a narrow `EventContext` and never sees the engine.
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
    let clock: RunClock
    /// The run's one record and its log: every event, operation, fault, error and measurement is added to it
    /// when it happens, never kept beside it and copied in at the end.
    let journal: RunJournal
    /// The planned events and when each comes due (Timeline/); the schedulers dispatch what it says is due.
    var timeline: Timeline
    let liveAtStart: LiveStoreAtStart
    let readers: RunReaders
    let writers: WriterRounds
    let scopedFaults: ScopedFaults
    let sidecars: Sidecars
    let crashes: RunCrashes
    let location = LiveLocation()
    let cloud = CloudRunState()
    /// The children of the run (made when the run starts), for naming the process behind a fault.
    private let names = ChildNames()
    /// The rules armed for the whole run (rule id -> index in `faults.rules`), for the fault table: it is written
    /// even when the run ends early (a hung program at its time limit still says which rule fired).
    private var armed: [String: Int] = [:]
    /// The run's scratch directory (kept after the run only with `keepScratch`).
    public private(set) var scratchDirectory: URL?

    public init(scenario: Scenario, file: String, settings: Settings) throws {
        self.scenario = scenario
        scenarioFile = file
        self.settings = settings
        executable = try LifeboatExecutable.locate()
        timeline = Timeline(scenario)
        clock = RunClock(timeLimit: scenario.timeLimit)
        journal = RunJournal(plan: JudgingPlan(scenario, file: file), clock: clock, progress: settings.progress)
        liveAtStart = LiveStoreAtStart(fresh: scenario.store.fresh)
        readers = RunReaders(scenario: scenario, executable: executable, journal: journal)
        writers = WriterRounds(scenario: scenario, executable: executable, journal: journal, readers: readers)
        scopedFaults = ScopedFaults(scenario: scenario, journal: journal)
        sidecars = Sidecars(scenario: scenario, journal: journal, scopedFaults: scopedFaults)
        crashes = RunCrashes(scenario: scenario, journal: journal, rounds: writers, childName: names.name(ofAny:))
    }

    /// Runs the scenario and writes its reports; returns the result.
    public func run() throws -> (RunResult, RunDirectory) {
        let runDirectory = try RunDirectory.create(root: settings.reportsRoot)
        let scratch = settings.scratchRoot.appendingPathComponent("run-\(runDirectory.id)")
        scratchDirectory = scratch
        let pidFile = settings.scratchRoot.appendingPathComponent("run-\(runDirectory.id).pids")
        let leftovers = ChildRegistry.reapDeadRuns(in: settings.scratchRoot)
        clock.restart()
        let startedAt = ISO8601DateFormatter().string(from: Date())
        if leftovers.processes + leftovers.mounts + leftovers.directories > 0 {
            journal.note("runner", .note, "cleaned up after a run that died: \(leftovers.processes) process(es) killed, \(leftovers.mounts) FaultFS mount(s) cleared, \(leftovers.directories) scratch director(ies) removed")
        }
        defer { if !settings.keepScratch { try? FileManager.default.removeItem(at: scratch) } }
        // Child logs go in the run directory: evidence quotes a command's head and tail, the log keeps all of it.
        let children = try ChildRegistry(pidFile: pidFile, logDirectory: runDirectory.url.appendingPathComponent("logs"))
        defer { children.finish() }
        names.registry = children
        let volume = try (settings.makeVolume ?? StoreVolumes.make)(scenario, scratch.appendingPathComponent("store"))
        children.syncShim = volume.syncShim(besides: executable)
        if volume is FaultFSVolume, children.syncShim == nil {
            journal.note("runner", .note, "\(SyncShim.libraryName) not found beside \(executable.path): sync(2)/syncfs(2) of children will not reach FaultFS (build it with `swift build`)")
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
            journal.add(.error("\(error)"))
            journal.note("runner", .error, "\(error)")
            if let reason = RunEnvironment.reason(error) { journal.add(.environmentError(reason)) }
        }
        journal.add(faultSummaries(volume: volume))
        journal.add(sidecars.stopAll())
        let coverage = try? (volume as? FaultFSVolume)?.runCoverage()
        var activity: StoreActivity?
        if let faultFS = volume as? FaultFSVolume, let database = faultFS.volumePath(of: location.current(live)) {
            let started = Date()
            activity = faultFS.storeActivity(database: database, now: clock.now()) { children.name(ofAny: $0) }
            if let activity {
                journal.note("runner", .note, String(format: "store activity from the op log in %.2f s: %d -wal samples, %d checkpoint(s), %d program fsync(s)",
                                                     Date().timeIntervalSince(started), activity.walBytes.count, activity.checkpoints.count, activity.fsyncs.count))
            }
        }
        children.killAll()
        if journal.record.environmentError == nil, let reason = RunReaders.harnessFailure(children: children) {
            journal.add([.error(reason), .environmentError(reason)])
        }
        let end = RunEnd(scenario: scenario, history: history, live: location.current(live), writers: writers, readers: readers, sidecars: sidecars,
                         location: location, children: children, now: clock.now())
        journal.complete { record in
            record.coverage = coverage
            record.activity = activity
            end.measure(&record, runID: runDirectory.id, startedAt: startedAt)
            record.interruption = Interruption.description
        }
        let result = RunResult.judged(journal.record)
        try RunReports.write(result, record: journal.record, scenario: scenario, log: journal.log, to: runDirectory)
        sidecars.copyLogs(to: runDirectory)
        try runDirectory.markLatest()
        return (result, runDirectory)
    }

    func execute(live: URL, history: URL, scratch: URL, volume: any StoreVolume, children: ChildRegistry) throws {
        try RunEnvironment.preflight(scenario, environment: ToolEnvironment.of(scenario, file: scenarioFile, live: live, scratch: scratch, volume: volume))
        var storeOptions = StoreOptions()
        storeOptions.journalMode = StoreOptions.JournalMode(rawValue: scenario.store.journalMode) ?? .wal
        storeOptions.incrementalAutoVacuum = scenario.store.autoVacuum == "incremental"
        if scenario.store.fresh {
            // No store yet: the first writer's open creates it (the one creation path, `PersistentStore`).
            journal.note("runner", .start, "no store on \(volume.label): the first writer creates it")
        } else if let from = scenario.store.from {
            journal.note("runner", .start, "copying \(from) on \(volume.label)")
            try UserStoreCopy.copy(URL(fileURLWithPath: from), to: live)
        } else {
            journal.note("runner", .start, "generating \(scenario.store.objects) objects on \(volume.label)")
            var generator = StoreGenerator(objects: scenario.store.objects, blobFraction: scenario.store.blobFraction,
                                           blobSize: scenario.store.blobSize, seed: scenario.seed)
            generator.history = scenario.store.history
            generator.inheritance = scenario.store.inheritance
            generator.cloudKit = scenario.store.cloudkit
            generator.freeSpace = scenario.store.freeSpace
            try generator.generate(at: live, options: storeOptions)
        }
        try liveAtStart.read(live)
        try settings.afterGeneration?(volume, live, clock.now())
        journal.add(.initial(liveAtStart.objects))
        scopedFaults.watch(volume: volume, children: children)
        for (index, rule) in scenario.faults.rules.enumerated() where rule.duringStep == nil && !rule.isScoped {
            let id = try volume.arm(rule)
            armed[id] = index
            journal.note("faultfs", .fault, "armed rule \(index): \(rule.ops.text) \(rule.path) -> \(rule.action)")
        }
        // Readers first: an app's UI is reading before and while the writers write.
        try readers.start(live: live, history: history, scratch: scratch, children: children, atRunStart: true)
        sidecars.environment = ToolEnvironment.of(scenario, file: scenarioFile, live: live, scratch: scratch, volume: volume)
        writers.beginFirst(base: journal.record.initial, baseNotes: liveAtStart.state.notes.keys.sorted { $0.uuidString < $1.uuidString })
        try writers.startWriters(round: 0, live: live, history: history, scratch: scratch, children: children)
        try sidecars.tick(children: children, writersRunning: scenario.writers.count > 0)
        let context = eventContext(live: live, scratch: scratch, volume: volume, children: children)
        if scenario.scheduler == "turns" {
            try TurnsScheduler(engine: self, history: history, scratch: scratch, volume: volume, children: children).run(context)
        } else {
            try FreeScheduler(engine: self, history: history, volume: volume, children: children).run(context)
        }
    }

    /// What each fault rule of the run did (fired counts, the process each hit).
    private func faultSummaries(volume: any StoreVolume) -> [RunRecord.Entry] {
        let fired = (try? volume.firedCounts()) ?? [:]
        let hits = (volume as? FaultFSVolume)?.faultHits(name: names.name(ofAny:)) ?? [:]
        return armed.merging(scopedFaults.armed, uniquingKeysWith: { first, _ in first }).sorted(by: { $0.value < $1.value }).map { id, index in
            let rule = scenario.faults.rules[index]
            var summary = FaultSummary(name: "rule \(index)", fired: fired[id] ?? 0,
                                       detail: "\(rule.ops.text) \(rule.path) -> \(rule.action)")
            summary.rule = index
            summary.hit = hits[id]
            return .fault(summary)
        }
    }

    // MARK: Dispatch

    /// The context of an event run now: the narrow view of the run a kind gets.
    func eventContext(live: URL, scratch: URL, volume: any StoreVolume, children: ChildRegistry) -> EventContext {
        EventContext(live: location.current(live), scratch: scratch, volume: volume, children: children, scenario: scenario,
                     scenarioFile: scenarioFile, executable: executable, clock: clock,
                     journalLine: { [journal] in journal.note($0, $1, $2, at: $3) }, recorded: { [journal] in journal.record },
                     writers: writers, readers: readers, sidecars: sidecars, crashes: crashes,
                     location: location, cloud: cloud, liveAtStart: liveAtStart,
                     runDuring: { [unowned self] index, start, child in
                         try self.runDuring(index, start: start, child: child,
                                            self.eventContext(live: live, scratch: scratch, volume: volume, children: children))
                     })
    }

    /// Hands a due event to its kind's handler and adds what it measured to the record; returns whether the run
    /// crashed (the power failed during it, or a crash rule fired while it ran).
    func dispatch(_ event: DueEvent, _ context: EventContext) throws -> Bool {
        guard let handler = EventKinds.handler(for: event.kind) else {
            throw RunError.environment("no handler for the timeline event kind '\(event.kind)'")
        }
        var context = context
        context.live = location.current(context.live)
        let outcome: EventOutcome
        do {
            outcome = try handler.run(event, context)
        } catch let failed as StepEnvironmentError {
            journal.add(failed.entries)
            throw failed.error
        }
        journal.add(outcome.entries)
        if let index = event.index { timeline.finished(index, at: clock.now()) }
        return outcome.crashed || crashes.crashedByRule
    }

    /// Runs the entries planned during entry `index` (`during_step`) while its process runs, each `delay` seconds
    /// after `start` (sooner when the process ends first: then right after it, as the timeline notes).
    private func runDuring(_ index: Int, start: Double, child: ChildRegistry.Child, _ context: EventContext) throws {
        for event in timeline.takeDuring(index) {
            let at = start + (event.step?.delay ?? 0)
            while child.isRunning, clock.now() < at { try clock.checkDeadline(); usleep(1_000) }
            if !child.isRunning { journal.note("runner", .note, "schedule[\(event.index ?? 0)] (\(event.kind)) runs after schedule[\(index)] ended, which finished first") }
            _ = try dispatch(event, context)
        }
    }

    /// After a crash, what is left of the timeline runs against the recovered store, between no writer turns.
    func runRestAfterCrash(_ context: EventContext) throws {
        timeline.cancelCrash()
        while let event = timeline.dueStep(commits: Int.max, seconds: .infinity, writersRunning: false) {
            try clock.checkDeadline()
            _ = try dispatch(event, context)
        }
    }
}

/// The names of the run's children, by any pid of their process trees: for naming who made a call or lost an
/// operation. The registry exists once the run has started.
final class ChildNames {
    var registry: ChildRegistry?
    func name(ofAny pids: [Int32]) -> String? { registry?.name(ofAny: pids) }
}
