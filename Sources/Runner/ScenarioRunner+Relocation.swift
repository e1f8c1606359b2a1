import Checks
import Foundation
import Scenario
import StoreModel
import Workload

/// Where the live store is: the one place every part of a run asks (`currentLive`). A `relocate` step moves it;
/// from then on every event (backups, restores, syncs, checkpoints, cleanups), the writers and readers started
/// after the move, the sidecars started after it and every end-of-run check use the store at its new place.
final class LiveLocation {
    /// The live store after the last `relocate` (nil: where the run generated it).
    var url: URL?

    /// One move that finished, with what was running when it began.
    struct Move {
        var index: Int
        var label: String
        var from: URL
        var to: URL
        var start: Double
        var end: Double
        /// The round of writers the move ended.
        var round: Int
        /// Writers and readers that kept the old store open across the move (`across_relocate: keep`).
        var kept: [ChildRegistry.Child]
        /// The moved store as read right after the move (what the writers stopped before it are held to).
        var moved: StoreState?
    }
    var moves: [Move] = []
}

extension ScenarioRunner {
    /// The live store now: where the last `relocate` put it, or `original`.
    func currentLive(_ original: URL) -> URL { liveLocation.url ?? original }

    /// Before a move: readers and writers are stopped (the app closes its stack to move its store) unless the
    /// scenario keeps them across it (`across_relocate: keep`); returns the kept ones and whether any writer was
    /// running.
    func beginRelocation(_ context: EventContext) -> (kept: [ChildRegistry.Child], writersRunning: Bool) {
        let writersRunning = writerChildren.contains(where: \.isRunning)
        let keepWriters = scenario.writers.acrossRelocate == "keep"
        let keepReaders = scenario.readers?.acrossRelocate == "keep"
        let kept = context.children.running { ($0.name.hasPrefix("writer-") && keepWriters) || ($0.name.hasPrefix("reader-") && keepReaders) }
        let stopped = context.children.running { ($0.name.hasPrefix("writer-") && !keepWriters) || ($0.name.hasPrefix("reader-") && !keepReaders) }
        if !stopped.isEmpty {
            context.children.killAll { child in stopped.contains { $0 === child } }
            note("runner", .note, "stopped before the move: \(stopped.map(\.name).joined(separator: ", "))")
        }
        if !kept.isEmpty { note("runner", .note, "kept the old store open across the move: \(kept.map(\.name).joined(separator: ", "))") }
        return (kept, writersRunning)
    }

    /// After a move that finished: the run's live store is the new one; sidecars started from now on are told
    /// so; the writers that were running go on as a new round on the moved store (the app relaunched there) and
    /// the readers stopped for the move start again on it.
    func endRelocation(index: Int, label: String, from: URL, to: URL, start: Double, kept: [ChildRegistry.Child],
                       writersRunning: Bool, _ context: EventContext) throws {
        liveLocation.url = to
        sidecarState.environment = toolEnvironment(live: to, scratch: context.scratch, volume: context.volume)
        let readAt = now()
        let moved = try? StoreState.read(to)
        liveLocation.moves.append(LiveLocation.Move(index: index, label: label, from: from, to: to, start: start, end: readAt,
                                                    round: currentRound.number, kept: kept, moved: moved))
        note("runner", .note, "the live store is now \(to.path); later steps and the end-of-run checks use it")
        var movedContext = context
        movedContext.live = to
        if writersRunning, scenario.writers.count > 0 {
            // The round ends with the move: it is judged on the moved store as read now.
            if !rounds.isEmpty {
                rounds[rounds.count - 1].liveBeforeRestore = moved
                rounds[rounds.count - 1].liveBeforeRestoreAt = readAt
            }
            try beginRound(movedContext, relocation: true)
        } else if scenario.readers?.acrossRelocate != "keep" {
            try startReaders(live: to, history: context.scratch.appendingPathComponent("history"), scratch: context.scratch,
                             children: context.children)
        }
    }

    /// `relocation-carries-commits` for every move of the run: each writer of the round a move ended must be
    /// whole in the store the app uses afterwards (the moved store as read right after the move for writers the
    /// move stopped or that had finished; the store at the end of the run for writers that kept the old store
    /// open), and every kept process is accounted for: where its later commits went, what it read, how it ended.
    func recordRelocationVerdicts(transactions: [Transaction], oracles: [Oracle], history: URL, finalLive: URL) {
        guard !liveLocation.moves.isEmpty else { return }
        let final = try? StoreState.read(finalLive)
        for move in liveLocation.moves {
            let oracle = oracles[min(move.round, oracles.count - 1)]
            let old = StoreFiles(move.from)
            let oldState = try? StoreState.read(move.from)
            let keptNames = Set(move.kept.map(\.name))
            var processes: [RelocationCheck.Process] = []
            for writer in oracle.writers where !WriterRound.isBulkDelete(writer) {
                let name = "writer-\(writer)"
                let kept = keptNames.contains(name)
                let sequence = oracle.sequence(of: writer).filter { $0.outcome == .committed }
                var process = RelocationCheck.Process(name: name, kept: kept, acknowledged: sequence.count,
                                                      acknowledgedBeforeMove: sequence.filter { ($0.ackAt ?? .infinity) < move.start }.count)
                if let state = kept ? final : move.moved, let match = oracle.match(state).first(where: { $0.writer == writer }) {
                    process.reflected = match.prefixes.max()
                    process.mismatches = match.mismatches
                } else {
                    process.reflected = nil
                    process.mismatches = ["the store at \(finalLive.lastPathComponent) cannot be read"]
                }
                if kept, let oldState { process.reflectedInOldStore = oracle.match(oldState).first { $0.writer == writer }?.prefixes.max() }
                process.failure = failure(of: writerChildren.first { $0.name == name })
                processes.append(process)
            }
            for reader in move.kept where reader.name.hasPrefix("reader-") {
                let index = reader.name.dropFirst("reader-".count)
                let snapshots = ReaderSnapshot.load(Self.readerDirectory(history: history).appendingPathComponent("reader-\(index).jsonl"))
                processes.append(RelocationCheck.Process(name: reader.name, kept: true, readsAfterMove: snapshots.filter { $0.began > move.end }.count,
                                                         failure: failure(of: reader)))
            }
            let files = RelocationCheck.OldFiles(path: move.from.path, database: StoreFiles.size(old.database).map(Int.init),
                                                 wal: StoreFiles.size(old.wal).map(Int.init), shm: StoreFiles.size(old.shm).map(Int.init))
            record([RelocationCheck.verdict(label: move.label, newPlace: move.to.path, processes: processes, old: files)])
        }
    }

    /// How a process ended when it ended on its own with a non-zero status: its exit code and the tail of its
    /// output (a process the run stopped ends by a signal and is not a failure).
    func failure(of child: ChildRegistry.Child?) -> String? {
        guard let child, let status = child.status, status > 0 else { return nil }
        let tail = child.output.split(separator: "\n").suffix(2).joined(separator: " | ")
        return "exited with status \(status)" + (tail.isEmpty ? "" : ": \(tail.prefix(300))")
    }
}
