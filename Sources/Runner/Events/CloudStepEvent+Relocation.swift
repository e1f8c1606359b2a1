import Checks
import Foundation
import Scenario
import StoreModel

/// A `relocate` step's effect on the run: what stops before the move and what begins after it.
extension CloudStepEvent {
    /// Before a move: readers and writers are stopped (the app closes its stack to move its store) unless the
    /// scenario keeps them across it (`across_relocate: keep`); returns the kept ones and whether any writer was
    /// running.
    func beginRelocation(_ context: EventContext) -> (kept: [ChildRegistry.Child], writersRunning: Bool) {
        let writersRunning = context.writers.anyRunning
        let keepWriters = context.scenario.writers.acrossRelocate == "keep"
        let keepReaders = context.scenario.readers?.acrossRelocate == "keep"
        let kept = context.children.running { ($0.name.hasPrefix("writer-") && keepWriters) || ($0.name.hasPrefix("reader-") && keepReaders) }
        let stopped = context.children.running { ($0.name.hasPrefix("writer-") && !keepWriters) || ($0.name.hasPrefix("reader-") && !keepReaders) }
        if !stopped.isEmpty {
            context.children.killAll { child in stopped.contains { $0 === child } }
            context.note("runner", .note, "stopped before the move: \(stopped.map(\.name).joined(separator: ", "))")
        }
        if !kept.isEmpty { context.note("runner", .note, "kept the old store open across the move: \(kept.map(\.name).joined(separator: ", "))") }
        return (kept, writersRunning)
    }

    /// After a move that finished: the run's live store is the new one; sidecars started from now on are told
    /// so; the writers that were running go on as a new round on the moved store (the app relaunched there) and
    /// the readers stopped for the move start again on it.
    func endRelocation(index: Int, label: String, from: URL, to: URL, start: Double, kept: [ChildRegistry.Child],
                       writersRunning: Bool, _ context: EventContext) throws {
        context.sidecars.environment = context.toolEnvironment(live: to)
        let readAt = context.now()
        let moved = try? StoreState.read(to)
        context.location.moved(LiveLocation.Move(index: index, label: label, from: from, to: to, start: start, end: readAt,
                                                 round: context.writers.current.number, kept: kept, moved: moved))
        context.note("runner", .note, "the live store is now \(to.path); later steps and the end-of-run checks use it")
        if writersRunning, context.scenario.writers.count > 0 {
            // The round ends with the move: it is judged on the moved store as read now.
            context.writers.endWithMove(moved: moved, at: readAt)
            try context.writers.beginRound(live: to, scratch: context.scratch, children: context.children, relocation: true)
        } else if context.scenario.readers?.acrossRelocate != "keep" {
            try context.readers.start(live: to, history: context.scratch.appendingPathComponent("history"), scratch: context.scratch,
                                      children: context.children)
        }
    }
}
