import Checks
import Foundation
import Scenario

/// The engine's side of one kind of timeline event: when an entry of the kind is due (by default the triggers
/// every entry takes) and what running it does. Each kind lives in its own file in Sources/Runner/Events and is
/// listed once in `EventKinds.all`; the schedulers only dispatch, so a new kind needs no edit to them. The
/// scenario file's side of the kind (its keys) is a `ScheduleEntryKind` in Sources/Scenario/Schedule.
///
/// Jepsen's `invoke!` shape: a kind gets the event and a narrow context (where the live store is, the volume,
/// the processes, the clock, the parts of the run it may act on, the record so far to read) and returns what it
/// measured as record entries, taken at the moment they describe; the engine adds them to the run's one record.
/// A kind never sees the engine.
protocol RunEventKind: Sendable {
    /// The kind names it handles (`Scenario.Step.action` values, or `crash`).
    var kinds: [String] { get }
    /// Whether the entry is due; nil leaves it to the common triggers (`Timeline.triggerFired`).
    func isDue(_ entry: Timeline.Entry, commits: Int, seconds: Double, writersRunning: Bool) -> Bool?
    /// Runs one due event and returns what it measured, and whether the run crashed (the writers' loop then
    /// ends, and what is left of the timeline runs against the recovered store).
    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome
}

extension RunEventKind {
    func isDue(_ entry: Timeline.Entry, commits: Int, seconds: Double, writersRunning: Bool) -> Bool? { nil }
}

/// What an event returns: the record entries it measured, in order, and whether the power failed during it.
struct EventOutcome {
    var entries: [RunRecord.Entry] = []
    var crashed = false
}

/// What a handler works with: the live store, the run's scratch, the volume, the children, the scenario and the
/// clock; the parts of the run an event acts on (the writers' rounds, the readers, the sidecars, the crash, where
/// the live store is, the cloud); and, under the turns scheduler, how writer turns are granted while the event runs.
struct EventContext {
    /// The live store where it is when the event runs (`dispatch` sets it from `location`).
    var live: URL
    let scratch: URL
    let volume: any StoreVolume
    let children: ChildRegistry
    let scenario: Scenario
    /// The scenario file (its folder holds the scripts a command names).
    let scenarioFile: String
    /// The lifeboat executable the event's children run.
    let executable: URL
    let clock: RunClock
    /// Writes a line in the run's timeline and log (`RunJournal.note`): at the time given, or at `now()`.
    let journalLine: (_ actor: String, _ kind: TimelineEvent.Kind, _ detail: String, _ at: Double?) -> Void
    /// Notes a line at `now()` (a closure, for the helpers that take one).
    var note: (String, TimelineEvent.Kind, String) -> Void { { [journalLine] in journalLine($0, $1, $2, nil) } }
    /// Notes a line at a time read earlier: the moment it describes, when the line can only be written after the
    /// action (a resume is the moment its signal went out, not the moment this thread got to write it down).
    func note(at time: Double, _ actor: String, _ kind: TimelineEvent.Kind, _ detail: String) { journalLine(actor, kind, detail, time) }
    /// The record as the run has filled it so far (read only: what earlier events measured).
    let recorded: () -> RunRecord
    /// The run's writers, round by round (a restore with `after_restore: continue` begins a round).
    let writers: WriterRounds
    let readers: RunReaders
    let sidecars: Sidecars
    /// The power failure: a crash planned during a step, or one a fault rule set off.
    let crashes: RunCrashes
    /// Where the live store is now (a `relocate` moves it).
    let location: LiveLocation
    /// The zone and the second devices of the run's iCloud account.
    let cloud: CloudRunState
    /// The live store as the run began with it (the metadata a backup is held to).
    let liveAtStart: LiveStoreAtStart
    /// Runs the entries planned during entry `index` (`during_step`) while `child` runs, from `start`.
    let runDuring: (_ index: Int, _ start: Double, _ child: ChildRegistry.Child) throws -> Void
    /// Turns scheduler: a copy through SQLite's step loop runs in lockstep with writer turns.
    var lockstep: Lockstep?
    /// Turns scheduler: what the app does while the event's process (the child given) runs: writer turns (with
    /// a crash during it), the `while_held` work of a `hold` rule each time it holds one of the process's calls;
    /// it returns what that work measured.
    var whileRunning: ((ChildRegistry.Child) throws -> [RunRecord.Entry])?

    /// Seconds since the run began (the clock of every record time).
    var now: () -> Double { clock.now }
    /// Unix time of the run's start, for children that write times on the run clock.
    var epoch: Double { clock.epoch }

    /// What a program the scenario runs gets in its environment (`ToolEnvironment`).
    func toolEnvironment(live: URL) -> [String: String] {
        ToolEnvironment.of(scenario, file: scenarioFile, live: live, scratch: scratch, volume: volume)
    }
}

/// The registry of event kinds.
enum EventKinds {
    static let all: [any RunEventKind] = [
        CopyStepEvent(), CrashEvent(), StoreOperationEvent(), SidecarActionEvent(), WriterPauseEvent(), CloudStepEvent(), CleanupEvent(), CloudDeviceEvent(),
        DamageEvent(),
    ]

    static func handler(for kind: String) -> (any RunEventKind)? {
        all.first { $0.kinds.contains(kind) }
    }
}
