import Checks
import Foundation
import StoreModel

extension RunEnd {
    /// For `relocation-carries-commits`: every move of the run with the stores its verdict reads (the moved store
    /// as read right after the move, the store the app uses at the end, the old store's files), which processes
    /// kept the old store, what kept readers read after the move, and how the processes ended.
    func relocations() -> [RelocationRecord] {
        guard !location.moves.isEmpty else { return [] }
        let final = try? StoreState.read(live)
        return location.moves.map { move in
            let old = StoreFiles(move.from)
            var reads: [String: Int] = [:]
            var failures: [String: String] = [:]
            for reader in move.kept where reader.name.hasPrefix("reader-") {
                let index = reader.name.dropFirst("reader-".count)
                let snapshots = ReaderSnapshot.load(RunReaders.directory(history: history).appendingPathComponent("reader-\(index).jsonl"))
                reads[reader.name] = snapshots.filter { $0.began > move.end }.count
            }
            for child in writers.children + move.kept { if let failure = Self.failure(of: child) { failures[child.name] = failure } }
            let files = RelocationCheck.OldFiles(path: move.from.path, database: StoreFiles.size(old.database).map(Int.init),
                                                 wal: StoreFiles.size(old.wal).map(Int.init), shm: StoreFiles.size(old.shm).map(Int.init))
            return RelocationRecord(label: move.label, from: move.from.path, to: move.to.path, start: move.start, end: move.end, round: move.round,
                                    kept: move.kept.map(\.name), moved: move.moved, final: final, old: try? StoreState.read(move.from),
                                    oldFiles: files, readsAfterMove: reads, failures: failures)
        }
    }
}
