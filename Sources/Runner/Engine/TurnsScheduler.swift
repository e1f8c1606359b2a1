import Checks
import Foundation
import Scenario
import SeededRandomness
import StoreModel
import Workload

/// The replay scheduler: writers take one transaction per turn, in an order drawn from the scenario's seed;
/// steps come due at exact commit counts and run between turns. The same seed gives the same interleaving of
/// commits and steps (FoundationDB-style), so a shrunk repro replays with the same stores and verdict. A copy
/// through SQLite's step loop (backup-api, replace) runs in lockstep: a seeded number of writer transactions
/// between two copy steps, so its restarts replay too. A crash planned during a step gets a seeded number of
/// writer turns while the step runs. Other copies (files, commands) run between turns: bugs that need writes
/// racing them are replayed in free mode instead.
struct TurnsScheduler {
    let engine: ScenarioRunner
    let history: URL
    let scratch: URL
    let volume: any StoreVolume
    let children: ChildRegistry

    func run(_ base: EventContext) throws {
        let (journal, clock, scenario) = (engine.journal, engine.clock, engine.scenario)
        let writers = engine.writers.children
        var random = SeededRandom(seed: scenario.seed ^ 0x7475_726E_7321)
        var fifos: [Int32] = []
        for index in writers.indices {
            let fd = open(scratch.appendingPathComponent("turns-\(index + 1)").path, O_RDWR | O_CLOEXEC)
            guard fd >= 0 else { throw RunError.environment("cannot open the turn FIFO of writer \(index + 1)") }
            fifos.append(fd)
        }
        defer { for fd in fifos { close(fd) } }
        var taken = Array(repeating: 0, count: writers.count)
        var commits = 0
        let historyFiles = writers.indices.map { history.appendingPathComponent("writer-\($0 + 1).jsonl") }

        /// Gives one turn to a writer drawn from the seed and waits until its transaction is recorded.
        func grantTurn() throws -> Bool {
            let open = writers.indices.filter { taken[$0] < scenario.writers.transactions && writers[$0].isRunning }
            guard !open.isEmpty else { return false }
            let writer = open[Int(random.next() % UInt64(open.count))]
            var token: UInt8 = 1
            guard write(fifos[writer], &token, 1) == 1 else { throw RunError.environment("cannot give writer \(writer + 1) its turn") }
            taken[writer] += 1
            let wanted = taken[writer]
            // Whether the writer runs is asked before its history is read: a writer that recorded its last
            // transaction and exited before this loop looked (a busy machine) still counts its commit, or a step
            // due after it would never come.
            while true {
                let running = writers[writer].isRunning
                let records = HistoryReader.records(historyFiles[writer]).filter { $0.state == .ack || $0.state == .failed }
                if records.count >= wanted {
                    if records.last?.state == .ack { commits += 1 }
                    return true
                }
                guard running else { return true }
                try clock.checkDeadline()
                usleep(300)
            }
        }

        /// Ends the writers once they have taken every turn: closing the FIFOs ends the loops of those still
        /// waiting for one, and each is waited for. A step that waits for the writers (`after_writers`, a
        /// restore's default) runs only after this, as it would after an app that quit, never while a writer's
        /// connection is still open.
        var writersFinished = false
        func finishWriters() throws {
            guard !writersFinished else { return }
            writersFinished = true
            for fd in fifos { close(fd) }
            fifos.removeAll()
            for (index, writer) in writers.enumerated() {
                _ = try children.wait(writer, timeout: 30)
                journal.note("writer-\(index + 1)", .end, "exited with \(writer.status ?? 0)")
            }
        }

        var context = base
        while true {
            if engine.crashes.crashedByRule { break }
            if let crash = try engine.crashes.crashIfFrozen(children: children, volume: volume, live: base.live) {
                journal.add(crash)
                break
            }
            if let crash = engine.timeline.dueCrash(commits: commits, seconds: nil) {
                _ = try engine.dispatch(crash, context)
                break
            }
            let writersLeft = writers.indices.contains { taken[$0] < scenario.writers.transactions && writers[$0].isRunning }
            if !writersLeft, engine.timeline.hasStepsDue(afterWriters: true) { try finishWriters() }
            try engine.sidecars.tick(children: children, writersRunning: writersLeft)
            if let event = engine.timeline.dueStep(commits: commits, seconds: 0, writersRunning: writersLeft) {
                let concurrentTurns = event.crash == nil ? 0 : Int(random.next() % 9)
                context.lockstep = Lockstep(grantTurn: grantTurn, draw: { Int(random.next() % 4) })
                let holding = event.crash == nil && scenario.faults.rules.contains { $0.whileHeld != nil }
                let eventContext = context
                context.whileRunning = { child in
                    for _ in 0..<concurrentTurns where try grantTurn() {}
                    return holding ? try HoldServer.serve(child, step: event.index ?? 0, eventContext, grantTurn: grantTurn) : []
                }
                _ = try engine.dispatch(event, context)
                context.lockstep = nil
                context.whileRunning = nil
                if event.crash != nil { break }
                continue
            }
            if try !grantTurn() {
                if !engine.timeline.hasStepsDue(afterWriters: true) {
                    journal.add(engine.timeline.neverDue.map { .error($0) })
                    break
                }
            }
        }
        // Writers that still wait for a turn are done.
        try finishWriters()
        try engine.sidecars.tick(children: children, writersRunning: false)
        // What is left runs between no turns, and (after a crash) against the recovered store.
        try engine.runRestAfterCrash(base)
    }
}
