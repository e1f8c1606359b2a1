import Checks
import Foundation
import Workload

/// The free scheduler: writers commit at their own pace while the engine watches their histories and hands each
/// event to its kind when the timeline says it is due (at a commit count, a second, after another entry or once
/// the writers are done). A crash ends the writers' loop; what is left of the timeline then runs against the
/// recovered store.
struct FreeScheduler {
    let engine: ScenarioRunner
    let history: URL
    let volume: any StoreVolume
    let children: ChildRegistry

    func run(_ context: EventContext) throws {
        let (journal, clock, scenario, writers) = (engine.journal, engine.clock, engine.scenario, engine.writers)
        var crashed = false
        var exited = Set<Int>()
        var lastProgress = (t: clock.now(), commits: 0)
        let acknowledgements = AcknowledgementCounter(directory: history)
        while !crashed {
            if let crash = try engine.crashes.crashIfFrozen(children: children, volume: volume, live: engine.location.current(context.live)) {
                journal.add(crash)
                crashed = true
                break
            }
            // The list grows when a restore begins a round of writers (writers.after_restore: continue).
            for (index, writer) in writers.children.enumerated() where !exited.contains(index) && !writer.isRunning {
                exited.insert(index)
                journal.note(writer.name, .end, "exited with \(writer.status ?? 0)")
            }
            let running = writers.anyRunning
            try engine.sidecars.tick(children: children, writersRunning: running)
            let commits = acknowledgements.count()
            try clock.checkDeadline()
            let t = clock.now()
            if t - lastProgress.t >= 1 {
                let rate = Double(commits - lastProgress.commits) / (t - lastProgress.t)
                let record = journal.record
                journal.progressLine(String(format: "%8.3f  progress  %d commits (%.0f/s), %d backup(s) and %d restore(s) done, %d fault event(s)",
                                            t, commits, rate, record.operations.filter { $0.action == "backup" }.count,
                                            record.operations.filter { $0.action == "restore" }.count, record.events.filter { $0.kind == .fault || $0.kind == .crash }.count))
                lastProgress = (t, commits)
            }
            if let event = engine.timeline.next(commits: commits, seconds: t, writersRunning: running) {
                if try engine.dispatch(event, context) { crashed = true; break }
                continue
            }
            if !running && engine.timeline.isFinished { break }
            // Entries at a time still come due once the writers are done (an idle store, a sidecar's schedule).
            if !running && !engine.timeline.hasEntriesDueLater {
                journal.add(engine.timeline.neverDue.map { .error($0) })
                break
            }
            usleep(10_000)
        }
        for (index, writer) in writers.children.enumerated() where !crashed && !exited.contains(index) {
            _ = try children.wait(writer, timeout: max(1, scenario.timeLimit - clock.now()))
            journal.note(writer.name, .end, "exited with \(writer.status ?? 0)")
        }
        if crashed { try engine.runRestAfterCrash(context) }
    }
}
