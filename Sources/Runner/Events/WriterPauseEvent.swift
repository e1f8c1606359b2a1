import Foundation
import Scenario

/// `pause-writers: true` and `resume-writers: true`: SIGSTOP and SIGCONT to every writer process. A paused
/// writer keeps its connection and whatever transaction it had begun, as a suspended app does; commits stop, so
/// entries at a commit count wait for the resume.
struct WriterPauseEvent: RunEventKind {
    var kinds: [String] { ["pause-writers", "resume-writers"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        let pause = event.kind == "pause-writers"
        // Each line at the moment it describes: the writers are stopped once SIGSTOP has gone out (a stopped writer
        // runs no more of its code), and they go on from the moment SIGCONT goes out: under load a resumed writer
        // can commit before this thread runs again to write the line.
        let beforeSignal = context.now()
        context.children.signal(pause ? SIGSTOP : SIGCONT) { $0.name.hasPrefix("writer-") }
        let detail = (pause ? "paused (SIGSTOP)" : "resumed (SIGCONT)") + " by schedule[\(event.index ?? 0)] after \(event.commits) commits"
        if pause { context.note("writers", .note, detail) } else { context.note(at: beforeSignal, "writers", .note, detail) }
        return EventOutcome()
    }
}
