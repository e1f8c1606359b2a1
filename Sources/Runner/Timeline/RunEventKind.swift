import Foundation
import Scenario

/// The runner's side of one kind of timeline event: when an entry of the kind is due (by default the triggers
/// every entry takes) and what running it does. Each kind lives in its own file in Sources/Runner/Events and is
/// listed once in `EventKinds.all`; the schedulers only dispatch, so a new kind needs no edit to them. The
/// scenario file's side of the kind (its keys) is a `ScheduleEntryKind` in Sources/Scenario/Schedule.
protocol RunEventKind: Sendable {
    /// The kind names it handles (`Scenario.Step.action` values, or `crash`).
    var kinds: [String] { get }
    /// Whether the entry is due; nil leaves it to the common triggers (`Timeline.triggerFired`).
    func isDue(_ entry: Timeline.Entry, commits: Int, seconds: Double, writersRunning: Bool) -> Bool?
    /// Runs one due event; returns whether the run crashed (the writers' loop then ends, and what is left of the
    /// timeline runs against the recovered store).
    func run(_ event: DueEvent, in runner: ScenarioRunner, _ context: EventContext) throws -> Bool
}

extension RunEventKind {
    func isDue(_ entry: Timeline.Entry, commits: Int, seconds: Double, writersRunning: Bool) -> Bool? { nil }
}

/// What a handler works with: the live store, the run's scratch, the volume, the children, and, under the
/// turns scheduler, how writer turns are granted while the event runs.
struct EventContext {
    /// The live store where it is when the event runs (`dispatch` sets it from `currentLive`).
    var live: URL
    let scratch: URL
    let volume: any StoreVolume
    let children: ChildRegistry
    /// Turns scheduler: a copy through SQLite's step loop runs in lockstep with writer turns.
    var lockstep: ScenarioRunner.Lockstep?
    /// Turns scheduler: what the app does while the event's process (the child given) runs: writer turns (with
    /// a crash during it), the `while_held` work of a `hold` rule each time it holds one of the process's calls.
    var whileRunning: ((ChildRegistry.Child) throws -> Void)?

    init(live: URL, scratch: URL, volume: any StoreVolume, children: ChildRegistry) {
        self.live = live
        self.scratch = scratch
        self.volume = volume
        self.children = children
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

extension ScenarioRunner {
    /// Hands a due event to its kind's handler; returns whether the run crashed.
    func dispatch(_ event: DueEvent, _ context: EventContext) throws -> Bool {
        guard let handler = EventKinds.handler(for: event.kind) else {
            throw RunError.environment("no handler for the timeline event kind '\(event.kind)'")
        }
        var context = context
        context.live = currentLive(context.live)
        let crashed = try handler.run(event, in: self, context)
        if let index = event.index { timeline.finished(index, at: now()) }
        return crashed
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
