import Checks
import ChildProcesses
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
/// writer turns while the step runs (none when it comes at the step's end, `at_end`). Other copies (files,
/// commands) run between turns: bugs that need writes racing them are replayed in free mode instead.
struct TurnsScheduler {
    let engine: ScenarioRunner
    let history: URL
    let scratch: URL
    let volume: any StoreVolume
    let children: ChildRegistry

    /// One writer process as the scheduler serves it: its turn FIFO (closed, -1, once it is done), the turns it
    /// has taken and the outcomes its history records.
    private struct TurnWriter {
        let child: ChildRegistry.Child
        var fifo: Int32
        var taken = 0
        /// Its history's outcomes, read as they are recorded.
        var outcomes: HistoryOutcomes
        var ended = false
    }

    func run(_ base: EventContext) throws {
        let (journal, clock, scenario) = (engine.journal, engine.clock, engine.scenario)
        var random = SeededRandom(seed: scenario.seed ^ 0x7475_726E_7321)
        var writers: [TurnWriter] = []
        defer { for writer in writers where writer.fifo >= 0 { close(writer.fifo) } }
        var commits = 0

        /// Takes in the writers started since the last look: round 0's at first, and the round a restore begins
        /// (`writers.after_restore: continue`), each with a FIFO of its own made when it was started.
        func adoptWriters() throws {
            let started = engine.writers.children, numbers = engine.writers.numbers
            for index in writers.count..<started.count {
                let number = numbers[index]
                let fd = open(scratch.appendingPathComponent(WriterRounds.turnFIFO(number)).path, O_RDWR | O_CLOEXEC)
                guard fd >= 0 else { throw RunError.environment("cannot open the turn FIFO of writer \(number)") }
                writers.append(TurnWriter(child: started[index], fifo: fd, outcomes: HistoryOutcomes(history.appendingPathComponent("writer-\(number).jsonl"))))
            }
        }
        try adoptWriters()

        /// The writers that can take a turn: turns left, running (a restore with `across_restore: stop` kills
        /// those of the round before it) and not ended.
        func ready() -> [Int] {
            writers.indices.filter { writers[$0].taken < scenario.writers.transactions && writers[$0].fifo >= 0 && writers[$0].child.isRunning }
        }

        /// Gives one turn to a writer drawn from the seed and waits until its transaction is recorded.
        func grantTurn() throws -> Bool {
            let candidates = ready()
            guard !candidates.isEmpty else { return false }
            let writer = candidates[Int(random.next() % UInt64(candidates.count))]
            var token: UInt8 = 1
            guard write(writers[writer].fifo, &token, 1) == 1 else { throw RunError.environment("cannot give \(writers[writer].child.name) its turn") }
            writers[writer].taken += 1
            let wanted = writers[writer].taken
            // Whether the writer runs is asked before its history is read: a writer that recorded its last
            // transaction and exited before this loop looked (a busy machine) still counts its commit, or a step
            // due after it would never come.
            var backoff = PollBackoff()
            while true {
                let running = writers[writer].child.isRunning
                if writers[writer].outcomes.read() >= wanted {
                    if writers[writer].outcomes.lastAcknowledged { commits += 1 }
                    return true
                }
                guard running else { return true }
                try clock.checkDeadline()
                backoff.wait()
            }
        }

        /// Ends the writers once they have taken every turn: closing the FIFOs ends the loops of those still
        /// waiting for one, and each is waited for. A step that waits for the writers (`after_writers`, a
        /// restore's default) runs only after this, as it would after an app that quit, never while a writer's
        /// connection is still open. Writers a later round starts are ended the same way when their turn comes.
        func finishWriters() throws {
            for index in writers.indices where !writers[index].ended {
                if writers[index].fifo >= 0 { close(writers[index].fifo) }
                writers[index].fifo = -1
            }
            for index in writers.indices where !writers[index].ended {
                writers[index].ended = true
                let writer = writers[index].child
                _ = try children.wait(writer, timeout: 30)
                journal.note(writer.name, .end, "exited with \(writer.status ?? 0)")
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
            let writersLeft = !ready().isEmpty
            if !writersLeft, engine.timeline.hasStepsDue(afterWriters: true) { try finishWriters() }
            try engine.sidecars.tick(children: children, writersRunning: writersLeft)
            if let event = engine.timeline.dueStep(commits: commits, seconds: 0, writersRunning: writersLeft) {
                // A crash at the step's end (`at_end`) gets no turn beside the step: the program runs against the
                // store as the last turn left it, and the crash finds that state in every run.
                let concurrentTurns = event.crash == nil || event.crash?.moment == .atEnd ? 0 : Int(random.next() % 9)
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
                // A restore may have begun a round of writers: they take their turns from here on.
                try adoptWriters()
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
