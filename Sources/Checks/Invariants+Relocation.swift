import Foundation

/// `relocation-carries-commits`: after a `relocate` step, every transaction a writer of the app had acknowledged
/// must be in the store the app uses afterwards (the store at its new place), and a process that kept the old
/// store open across the move (`across_relocate: keep`: a widget or an extension nobody told) is judged the same
/// way. Seed 002 (Kris Slazinski, "How to migrate NSPersistentCloudKitContainer to App Groups") quotes the
/// condition under which the old files may go: "if you can ensure no other process or a different thread is
/// accessing them". When the condition does not hold, the finding says where the commits went: the old store,
/// an orphaned `-wal` with no database beside it, a database truncated by `destroyPersistentStore`, or nowhere.
///
/// A pure function of what the runner measured (the checker reads no file): the runner fills the values below.
public enum RelocationCheck {
    /// One writer of the moved store (running when the move began or not), or a reader that kept the old store.
    public struct Process: Sendable, Equatable, Codable {
        public var name: String
        /// Kept the old store open across the move (`across_relocate: keep`); otherwise it was stopped before it.
        public var kept: Bool
        /// Writers: transactions acknowledged in all, and before the move began.
        public var acknowledged: Int
        public var acknowledgedBeforeMove: Int
        /// Writers: the longest prefix of its acknowledged transactions the app's store holds (nil: it matches no
        /// prefix), with the oracle's mismatches for evidence.
        public var reflected: Int?
        public var mismatches: [String]
        /// Writers: the longest prefix the old store's files still hold, when they can be read (nil: unreadable
        /// or gone).
        public var reflectedInOldStore: Int?
        /// Readers: read transactions begun after the move ended (on the old store).
        public var readsAfterMove: Int
        /// How it ended when it ended on its own with a non-zero status (exit code and the tail of its output);
        /// nil when it exited cleanly, still ran, or the run stopped it.
        public var failure: String?

        public init(name: String, kept: Bool, acknowledged: Int = 0, acknowledgedBeforeMove: Int = 0, reflected: Int? = 0,
                    mismatches: [String] = [], reflectedInOldStore: Int? = nil, readsAfterMove: Int = 0, failure: String? = nil) {
            self.name = name
            self.kept = kept
            self.acknowledged = acknowledged
            self.acknowledgedBeforeMove = acknowledgedBeforeMove
            self.reflected = reflected
            self.mismatches = mismatches
            self.reflectedInOldStore = reflectedInOldStore
            self.readsAfterMove = readsAfterMove
            self.failure = failure
        }

        var isWriter: Bool { name.hasPrefix("writer-") }
    }

    /// The old store's files when the run ended: sizes in bytes, nil when the file is not there.
    public struct OldFiles: Sendable, Equatable, Codable {
        public var path: String
        public var database: Int?
        public var wal: Int?
        public var shm: Int?

        public init(path: String, database: Int?, wal: Int?, shm: Int?) {
            self.path = path
            self.database = database
            self.wal = wal
            self.shm = shm
        }

        /// Where writes made to the old store after the move are, in words (after "are").
        func whereabouts(heldThere: Int?, of acknowledged: Int) -> String {
            let name = URL(fileURLWithPath: path).lastPathComponent
            if let heldThere, heldThere > 0, (database ?? 0) > 0 {
                return "in the old store at \(path), which holds \(heldThere == acknowledged ? "all \(heldThere)" : "\(heldThere)") of its transactions, where the app no longer looks"
            }
            switch (database, wal) {
            case (nil, let wal?) where wal > 0:
                return "in an orphaned \(name)-wal (\(wal) bytes) with no \(name) beside it"
            case (0?, let wal?) where wal > 0:
                return "in \(name)-wal (\(wal) bytes) beside a \(name) truncated to 0 bytes (destroyPersistentStore)"
            case (let database?, _) where database > 0:
                return "nowhere the app can read: the old store at \(path) (\(database) bytes, -wal \(wal ?? 0) bytes) does not hold them either"
            default:
                return "nowhere: no file of the old store at \(path) is left"
            }
        }
    }

    /// The verdict for one move: `label` names the step, `newPlace` the store the app uses afterwards.
    public static func verdict(label: String, newPlace: String, processes: [Process], old: OldFiles) -> Verdict {
        let name = "relocation-carries-commits"
        guard !processes.isEmpty else {
            return Verdict(name, .notApplicable, "\(label): no writer committed to the store before it moved and no reader kept it open")
        }
        var evidence: [String] = []
        // What the evidence shows, for the summary: lost commits, stale reads, processes that failed.
        var lostCommits = 0, staleReaders = 0, failed = 0
        for process in processes {
            if process.isWriter {
                let reflected = process.reflected ?? -1
                if reflected < process.acknowledged {
                    let held = max(0, reflected)
                    // Commits acknowledged before the move began had to move with the store; a kept writer's later
                    // ones went to the old store's files, after the move took its copy.
                    let lostBefore = max(0, process.acknowledgedBeforeMove - held)
                    let lostAfter = process.acknowledged - held - lostBefore
                    var line = "\(label): \(process.name)" + (process.kept ? " (kept the old store open across the move)" : "")
                        + " acknowledged \(process.acknowledged) transaction(s); the store the app uses at \(newPlace) "
                        + (process.reflected.map { "holds \($0)" } ?? "matches no prefix of them")
                    var parts: [String] = []
                    if lostBefore > 0 { parts.append("\(lostBefore) acknowledged before the move began did not move with the store") }
                    if lostAfter > 0 {
                        parts.append((lostBefore > 0 ? "\(lostAfter) more" : "the other \(lostAfter)") + ", acknowledged after the move took its copy, are "
                                     + old.whereabouts(heldThere: process.reflectedInOldStore, of: process.acknowledged))
                    }
                    line += "; " + parts.joined(separator: "; ")
                    evidence.append(line)
                    lostCommits += 1
                    if process.reflected == nil { evidence += process.mismatches.prefix(3).map { "\(label): \($0)" } }
                }
            } else if process.kept, process.readsAfterMove > 0 {
                evidence.append("\(label): \(process.name) kept the old store open and read it \(process.readsAfterMove) time(s) after the move: it shows none of what the app commits at \(newPlace)")
                staleReaders += 1
            }
            if let failure = process.failure {
                evidence.append("\(label): \(process.name) \(failure)")
                failed += 1
            }
        }
        if evidence.isEmpty {
            let writers = processes.filter(\.isWriter)
            let total = writers.map(\.acknowledged).reduce(0, +)
            return Verdict(name, .held, "\(label): the store at \(newPlace) holds all \(total) transaction(s) acknowledged by \(writers.count) writer(s) of the moved store")
        }
        // The summary says only what the evidence shows: a writer's exit alone is no lost commit.
        var said: [String] = []
        if lostCommits > 0 { said.append("acknowledged commits are not where the app looks after the move") }
        if staleReaders > 0 { said.append("\(staleReaders) process(es) read the old store after the move") }
        if failed > 0 { said.append("\(failed) process(es) of the app failed across the move") }
        let summary = lostCommits > 0 ? said.joined(separator: "; ") : "no acknowledged commit is missing, but " + said.joined(separator: "; ")
        return Verdict(name, .violated, "\(label): \(summary)", evidence: evidence)
    }
}
