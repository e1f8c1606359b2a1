import Foundation
import Scenario

/// `pause-writers: true` and `resume-writers: true`: SIGSTOP and SIGCONT to every writer process. A paused
/// writer keeps its connection and whatever transaction it had begun, as a suspended app does; commits stop, so
/// entries at a commit count wait for the resume.
struct WriterPauseEvent: RunEventKind {
    var kinds: [String] { ["pause-writers", "resume-writers"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        let pause = event.kind == "pause-writers"
        context.children.signal(pause ? SIGSTOP : SIGCONT) { $0.name.hasPrefix("writer-") }
        context.note("writers", .note, (pause ? "paused (SIGSTOP)" : "resumed (SIGCONT)") + " by schedule[\(event.index ?? 0)] after \(event.commits) commits")
        return EventOutcome()
    }
}
