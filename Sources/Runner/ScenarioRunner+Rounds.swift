import Checks
import ChildProcesses
import Foundation
import Scenario
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
}

extension ScenarioRunner {
    /// The round that is running (round 0 before the store is generated).
    var currentRound: WriterRoundState { rounds.last ?? WriterRoundState(number: 0, start: 0, base: record.initial, baseNotes: [], liveBeforeRestore: nil) }

    /// The live store as the first restore of the current round found it: the store the round's writers left.
    var liveBeforeRestore: StoreState? {
        get { rounds.last?.liveBeforeRestore }
        set { if !rounds.isEmpty { rounds[rounds.count - 1].liveBeforeRestore = newValue } }
    }

    /// Reads the live store as the first restore of the round finds it (the store the round's writers left).
    func readLiveBeforeRestore(_ live: URL) {
        guard !rounds.isEmpty, liveBeforeRestore == nil else { return }
        let at = now()
        liveBeforeRestore = try? StoreState.read(live)
        rounds[rounds.count - 1].liveBeforeRestoreAt = at
    }

    /// Starts the scenario's writers for `round` (numbers from `WriterRound`: round 0 keeps 1...count).
    func startWriters(round: Int, live: URL, history: URL, scratch: URL, children: ChildRegistry) throws {
        guard scenario.writers.count > 0 else { return }
        for index in 1...scenario.writers.count {
            let number = WriterRound.writer(index, round: round)
            var config = Writer.Configuration(
                store: live.path, history: history.appendingPathComponent("writer-\(number).jsonl").path, index: number,
                seed: scenario.seed &* 1_000_003 &+ UInt64(number), transactions: scenario.writers.transactions,
                rate: scenario.writers.rate,
                mix: [scenario.writers.mix.insert, scenario.writers.mix.update, scenario.writers.mix.delete, scenario.writers.mix.link],
                blobFraction: scenario.writers.blobFraction, blobSize: scenario.writers.blobSize,
                synchronous: scenario.writers.synchronous, checkpoint: scenario.writers.checkpoint, epoch: epoch)
            config.journalMode = scenario.store.journalMode
            config.externalDataGracePeriod = scenario.writers.externalDataGrace
            config.syncExternalData = scenario.writers.syncExternalData
            // A fresh store (`store.fresh`) has no file until round 0's first writer opens it.
            config.createsStore = scenario.store.fresh && round == 0
            config.inAppMigrateRequest = Self.inAppMigrateRequest(scratch: scratch, writer: "writer-\(number)").path
            if scenario.scheduler == "turns" {
                let fifo = scratch.appendingPathComponent("turns-\(index)")
                guard mkfifo(fifo.path, 0o600) == 0 else { throw RunError.environment("mkfifo \(fifo.path): \(String(cString: strerror(errno)))") }
                config.turns = fifo.path
                config.rate = 0
            }
            let configURL = scratch.appendingPathComponent("writer-\(number).json")
            try JSONEncoder().encode(config).write(to: configURL)
            writerChildren.append(try children.start("writer-\(number)", executable: executable, arguments: ["writer", "--config", configURL.path]))
            note("writer-\(number)", .start, "\(scenario.writers.transactions) transactions" + (round > 0 ? " (round \(round), on the store the restore or relocate before it left)" : ""))
        }
    }

    /// After a restore that ended (`writers.after_restore: continue`): the writers still running (they kept their
    /// connections across the restore, and `connections-agree` has looked at them) are stopped, the restored
    /// store is read as the new round's base, the readers the restore stopped start again, and a new round of
    /// writers starts on it.
    ///
    /// After a `relocate` (`relocation: true`) the same happens on the moved store, except that writers which kept
    /// the old store open (`writers.across_relocate: keep`) go on running beside the new round, and readers start
    /// again unless they kept the old store (`readers.across_relocate: keep`).
    func beginRound(_ context: EventContext, relocation: Bool = false) throws {
        let kept = writerChildren.filter(\.isRunning)
        if !kept.isEmpty, !relocation {
            context.children.killAll { child in kept.contains { $0 === child } }
            note("runner", .note, "\(kept.count) writer(s) of round \(currentRound.number) kept their connections across the restore; stopped before round \(currentRound.number + 1) begins")
        }
        let state: StoreState
        do { state = try StoreState.read(context.live) } catch {
            // The restore's own checks (integrity, restore-opens) report a store that cannot be read.
            note("runner", .note, "no round after the restore: the restored store cannot be read (\(error))")
            return
        }
        let number = currentRound.number + 1
        rounds.append(WriterRoundState(number: number, start: now(), base: state.notes.merging(state.others) { first, _ in first },
                                       baseNotes: state.notes.keys.sorted { $0.uuidString < $1.uuidString }, liveBeforeRestore: nil))
        note("runner", .note, "round \(number) begins on the \(relocation ? "moved" : "restored") store (\(state.notes.count + state.others.count) objects): its writers are held to it plus their own commits")
        let history = context.scratch.appendingPathComponent("history")
        if relocation ? scenario.readers?.acrossRelocate != "keep" : scenario.readers?.acrossRestore != "keep" {
            try startReaders(live: context.live, history: history, scratch: context.scratch, children: context.children)
        }
        try startWriters(round: number, live: context.live, history: history, scratch: context.scratch, children: context.children)
    }
}
