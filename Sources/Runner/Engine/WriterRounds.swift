import Checks
import ChildProcesses
import Foundation
import Scenario
import StoreModel
import Workload

/// One round of writers. Round 0 begins from the generated store; with `writers.after_restore: continue` every
/// restore that ends (without a crash) begins another, whose writers are new processes on the restored store.
/// The oracle follows the restore: what a round's stores are held to is the store the round began from plus the
/// commits acknowledged in it (`Oracle.round`), so a second backup must carry what was committed after the
/// first restore, and nothing the restore brought back passes for a new commit.
struct WriterRoundState {
    var number: Int
    /// Run clock when it began: 0, or the end of the restore that began it.
    var start: Double
    /// The store it began from, identity -> hash: the oracle's initial objects for the round.
    var base: [UUID: String]
    /// The notes of that store, which the round's bulk deletes choose from.
    var baseNotes: [UUID]
    /// The live store as the restore that ended the round found it (nil while the round lasts), and when the
    /// runner began to read it: writers that keep their connections across the restore may commit after that.
    var liveBeforeRestore: StoreState?
    var liveBeforeRestoreAt: Double?

    var recorded: RoundRecord {
        RoundRecord(number: number, start: start, base: base, liveBeforeRestore: liveBeforeRestore, liveBeforeRestoreAt: liveBeforeRestoreAt)
    }
}

/// The run's writer processes, round by round: which rounds there have been and every writer started so far.
final class WriterRounds {
    private let scenario: Scenario
    private let executable: URL
    private let journal: RunJournal
    private let readers: RunReaders
    private(set) var rounds: [WriterRoundState] = []
    /// Every writer process started so far, of every round.
    private(set) var children: [ChildRegistry.Child] = []
    /// The number each of `children` records its history under (`WriterRound.writer`), in the same order: the
    /// turns scheduler names a writer's history and turn FIFO by it.
    private(set) var numbers: [Int] = []

    init(scenario: Scenario, executable: URL, journal: RunJournal, readers: RunReaders) {
        self.scenario = scenario
        self.executable = executable
        self.journal = journal
        self.readers = readers
    }

    /// The round that is running (round 0 before the store is generated).
    var current: WriterRoundState {
        rounds.last ?? WriterRoundState(number: 0, start: 0, base: journal.record.initial, baseNotes: [], liveBeforeRestore: nil)
    }

    /// Every round, for the record.
    var recorded: [RoundRecord] { (rounds.isEmpty ? [current] : rounds).map(\.recorded) }

    /// The live store as the first restore (or move) of the current round found it: the store the round's
    /// writers left.
    var liveBeforeRestore: StoreState? { rounds.last?.liveBeforeRestore }

    /// Whether any writer of any round runs now.
    var anyRunning: Bool { children.contains(where: \.isRunning) }

    /// Round 0, on the store the run began with.
    func beginFirst(base: [UUID: String], baseNotes: [UUID]) {
        rounds = [WriterRoundState(number: 0, start: 0, base: base, baseNotes: baseNotes, liveBeforeRestore: nil)]
    }

    /// Reads the live store as the first restore of the round finds it (the store the round's writers left).
    func readLiveBeforeRestore(_ live: URL) {
        guard !rounds.isEmpty, liveBeforeRestore == nil else { return }
        let at = journal.clock.now()
        rounds[rounds.count - 1].liveBeforeRestore = try? StoreState.read(live)
        rounds[rounds.count - 1].liveBeforeRestoreAt = at
    }

    /// The round ends with a move: it is judged on the moved store as read at `at`.
    func endWithMove(moved: StoreState?, at: Double) {
        guard !rounds.isEmpty else { return }
        rounds[rounds.count - 1].liveBeforeRestore = moved
        rounds[rounds.count - 1].liveBeforeRestoreAt = at
    }

    /// Starts the scenario's writers for `round` (numbers from `WriterRound`: round 0 keeps 1...count).
    func startWriters(round: Int, live: URL, history: URL, scratch: URL, children registry: ChildRegistry) throws {
        guard scenario.writers.count > 0 else { return }
        for index in 1...scenario.writers.count {
            let number = WriterRound.writer(index, round: round)
            var config = Writer.Configuration(
                store: live.path, history: history.appendingPathComponent("writer-\(number).jsonl").path, index: number,
                seed: scenario.seed &* 1_000_003 &+ UInt64(number), transactions: scenario.writers.transactions,
                rate: scenario.writers.rate,
                mix: [scenario.writers.mix.insert, scenario.writers.mix.update, scenario.writers.mix.delete, scenario.writers.mix.link],
                blobFraction: scenario.writers.blobFraction, blobSize: scenario.writers.blobSize,
                synchronous: scenario.writers.synchronous, checkpoint: scenario.writers.checkpoint, epoch: journal.clock.epoch)
            config.journalMode = scenario.store.journalMode
            config.externalDataGracePeriod = scenario.writers.externalDataGrace
            config.syncExternalData = scenario.writers.syncExternalData
            // A fresh store (`store.fresh`) has no file until round 0's first writer opens it.
            config.createsStore = scenario.store.fresh && round == 0
            config.inAppMigrateRequest = InAppMigrateStep.request(scratch: scratch, writer: "writer-\(number)").path
            if scenario.scheduler == "turns" {
                // Named by the writer's number, so a round after a restore has FIFOs of its own (round 0: 1...count).
                let fifo = scratch.appendingPathComponent(Self.turnFIFO(number))
                guard mkfifo(fifo.path, 0o600) == 0 else { throw RunError.environment("mkfifo \(fifo.path): \(String(cString: strerror(errno)))") }
                config.turns = fifo.path
                config.rate = 0
            }
            let configURL = scratch.appendingPathComponent("writer-\(number).json")
            try JSONEncoder().encode(config).write(to: configURL)
            children.append(try registry.start("writer-\(number)", executable: executable, arguments: ["writer", "--config", configURL.path]))
            numbers.append(number)
            journal.note("writer-\(number)", .start, "\(scenario.writers.transactions) transactions" + (round > 0 ? " (round \(round), on the store the restore or relocate before it left)" : ""))
        }
    }

    /// The scratch name of the FIFO the turns scheduler gives writer `number` its turns through.
    static func turnFIFO(_ number: Int) -> String { "turns-\(number)" }

    /// After a restore that ended (`writers.after_restore: continue`): the writers still running (they kept their
    /// connections across the restore, and `connections-agree` has looked at them) are stopped, the restored
    /// store is read as the new round's base, the readers the restore stopped start again, and a new round of
    /// writers starts on it.
    ///
    /// After a `relocate` (`relocation: true`) the same happens on the moved store, except that writers which kept
    /// the old store open (`writers.across_relocate: keep`) go on running beside the new round, and readers start
    /// again unless they kept the old store (`readers.across_relocate: keep`).
    func beginRound(live: URL, scratch: URL, children registry: ChildRegistry, relocation: Bool = false) throws {
        let kept = children.filter(\.isRunning)
        if !kept.isEmpty, !relocation {
            registry.killAll { child in kept.contains { $0 === child } }
            journal.note("runner", .note, "\(kept.count) writer(s) of round \(current.number) kept their connections across the restore; stopped before round \(current.number + 1) begins")
        }
        let state: StoreState
        do { state = try StoreState.read(live) } catch {
            // The restore's own checks (integrity, restore-opens) report a store that cannot be read.
            journal.note("runner", .note, "no round after the restore: the restored store cannot be read (\(error))")
            return
        }
        let number = current.number + 1
        rounds.append(WriterRoundState(number: number, start: journal.clock.now(), base: state.notes.merging(state.others) { first, _ in first },
                                       baseNotes: state.notes.keys.sorted { $0.uuidString < $1.uuidString }, liveBeforeRestore: nil))
        journal.note("runner", .note, "round \(number) begins on the \(relocation ? "moved" : "restored") store (\(state.notes.count + state.others.count) objects): its writers are held to it plus their own commits")
        let history = scratch.appendingPathComponent("history")
        if relocation ? scenario.readers?.acrossRelocate != "keep" : scenario.readers?.acrossRestore != "keep" {
            try readers.start(live: live, history: history, scratch: scratch, children: registry)
        }
        try startWriters(round: number, live: live, history: history, scratch: scratch, children: registry)
    }
}
