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

    /// For `relocation-carries-commits`: every move of the run with the stores its verdict reads (the moved store
    /// as read right after the move, the store the app uses at the end, the old store's files), which processes
    /// kept the old store, what kept readers read after the move, and how the processes ended.
    func measureRelocations(history: URL, finalLive: URL) {
        guard !liveLocation.moves.isEmpty else { return }
        let final = try? StoreState.read(finalLive)
        record.relocations = liveLocation.moves.map { move in
            let old = StoreFiles(move.from)
            var reads: [String: Int] = [:]
            var failures: [String: String] = [:]
            for reader in move.kept where reader.name.hasPrefix("reader-") {
                let index = reader.name.dropFirst("reader-".count)
                let snapshots = ReaderSnapshot.load(Self.readerDirectory(history: history).appendingPathComponent("reader-\(index).jsonl"))
                reads[reader.name] = snapshots.filter { $0.began > move.end }.count
            }
            for child in writerChildren + move.kept { if let failure = failure(of: child) { failures[child.name] = failure } }
            let files = RelocationCheck.OldFiles(path: move.from.path, database: StoreFiles.size(old.database).map(Int.init),
                                                 wal: StoreFiles.size(old.wal).map(Int.init), shm: StoreFiles.size(old.shm).map(Int.init))
            return RelocationRecord(label: move.label, from: move.from.path, to: move.to.path, start: move.start, end: move.end, round: move.round,
                                    kept: move.kept.map(\.name), moved: move.moved, final: final, old: try? StoreState.read(move.from),
                                    oldFiles: files, readsAfterMove: reads, failures: failures)
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
