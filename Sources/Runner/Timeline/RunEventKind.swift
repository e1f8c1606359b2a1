import Checks
import Foundation
import Scenario

/// The runner's side of one kind of timeline event: when an entry of the kind is due (by default the triggers
/// every entry takes) and what running it does. Each kind lives in its own file in Sources/Runner/Events and is
/// listed once in `EventKinds.all`; the schedulers only dispatch, so a new kind needs no edit to them. The
/// scenario file's side of the kind (its keys) is a `ScheduleEntryKind` in Sources/Scenario/Schedule.
///
/// Jepsen's `invoke!` shape: a kind gets the event and a narrow context (where the live store is, the volume,
/// the processes, the clock, the timeline's notes, the record so far to read) and returns what it measured as
/// record entries, taken at the moment they describe; the engine adds them to the run's one record.
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
/// clock, and, under the turns scheduler, how writer turns are granted while the event runs.
struct EventContext {
    /// The live store where it is when the event runs (`dispatch` sets it from `currentLive`).
    var live: URL
    let scratch: URL
    let volume: any StoreVolume
    let children: ChildRegistry
    let scenario: Scenario
    /// The lifeboat executable the event's children run.
    let executable: URL
    /// Seconds since the run began (the clock of every record time).
    let now: () -> Double
    /// Unix time of the run's start, for children that write times on the run clock.
    let epoch: Double
    /// Notes a line in the run's timeline and log, at `now()`.
    let note: (String, TimelineEvent.Kind, String) -> Void
    /// The record as the run has filled it so far (read only: what earlier events measured).
    let recorded: () -> RunRecord
    /// The round of writers running now (its number and the store it began from).
    var round: WriterRoundState
    /// Turns scheduler: a copy through SQLite's step loop runs in lockstep with writer turns.
    var lockstep: ScenarioRunner.Lockstep?
    /// Turns scheduler: what the app does while the event's process (the child given) runs: writer turns (with
    /// a crash during it), the `while_held` work of a `hold` rule each time it holds one of the process's calls.
    var whileRunning: ((ChildRegistry.Child) throws -> Void)?
    /// The engine itself, for the kinds whose work still lives in `ScenarioRunner` extensions (copy steps,
    /// crashes, cloud steps, cleanup, sidecars); the narrowed kinds (writer pauses, store operations, damage)
    /// never touch it. docs/architecture.md lists which is which.
    let engine: ScenarioRunner
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

extension ScenarioRunner {
    /// The context of an event run now: the narrow view of the run a kind gets.
    func eventContext(live: URL, scratch: URL, volume: any StoreVolume, children: ChildRegistry) -> EventContext {
        EventContext(live: currentLive(live), scratch: scratch, volume: volume, children: children, scenario: scenario, executable: executable,
                     now: { [unowned self] in self.now() }, epoch: epoch, note: { [unowned self] in self.note($0, $1, $2) },
                     recorded: { [unowned self] in self.record }, round: currentRound, engine: self)
    }

    /// Adds what an event returned to the record.
    func apply(_ outcome: EventOutcome) {
        for entry in outcome.entries { record.add(entry) }
    }

    /// Hands a due event to its kind's handler, adds what it measured to the record; returns whether the run
    /// crashed (the power failed during it, or a crash rule fired while it ran).
    func dispatch(_ event: DueEvent, _ context: EventContext) throws -> Bool {
        guard let handler = EventKinds.handler(for: event.kind) else {
            throw RunError.environment("no handler for the timeline event kind '\(event.kind)'")
        }
        var context = context
        context.live = currentLive(context.live)
        context.round = currentRound
        let outcome = try handler.run(event, context)
        apply(outcome)
        if let index = event.index { timeline.finished(index, at: now()) }
        return outcome.crashed || crashedByRule
    }

    /// Runs the entries planned during entry `index` (`during_step`) while its process runs, each `delay` seconds
    /// after `start` (sooner when the process ends first: then right after it, as the timeline notes).
    func runDuring(_ index: Int, start: Double, child: ChildRegistry.Child, _ context: EventContext) throws {
        var inner = context
        inner.lockstep = nil
        inner.whileRunning = nil
        for event in timeline.takeDuring(index) {
            let at = start + (event.step?.delay ?? 0)
            while child.isRunning, now() < at { try checkDeadline(); usleep(1_000) }
            if !child.isRunning { note("runner", .note, "schedule[\(event.index ?? 0)] (\(event.kind)) runs after schedule[\(index)] ended, which finished first") }
            _ = try dispatch(event, inner)
        }
    }
}
