import Foundation
import GRDB
import GRDBSQLite

/// SQLite's online backup API driven step by step, with restarts made visible.
///
/// SQLite restarts a backup whenever another connection writes the source; under steady writes it may never
/// finish. Each step copies `pagesPerStep` pages; a step after which more pages remain than before was a restart.
public enum SQLiteBackup {
    public struct Options: Sendable, Hashable, Codable {
        /// Pages per `sqlite3_backup_step`; -1 copies everything in one step (what replace does).
        public var pagesPerStep: Int32 = -1
        /// Pause between steps, which lets writers in (and so provokes restarts).
        public var stepDelay: Double = 0
        /// Give up after this many restarts (nil: never).
        public var maxRestarts: Int? = 1000
        /// Stop dead once this many pages are copied (a crash point the scenario runner aims at).
        public var hold: Hold?
        /// Take steps only when the runner says so (turns scheduler).
        public var gate: Gate?
        public init(pagesPerStep: Int32 = -1, stepDelay: Double = 0, maxRestarts: Int? = 1000, hold: Hold? = nil, gate: Gate? = nil) {
            self.pagesPerStep = pagesPerStep
            self.stepDelay = stepDelay
            self.maxRestarts = maxRestarts
            self.hold = hold
            self.gate = gate
        }
    }

    /// A crash point inside the copy: after exactly `page` pages the process writes "copied total" to `marker`
    /// and waits to be killed, with the destination half written and its transaction open, which is where a
    /// power failure "during backup at page N" leaves it. Steps are cut short so the count is exact.
    public struct Hold: Sendable, Hashable, Codable {
        public var page: Int
        public var marker: String
        public init(page: Int, marker: String) {
            self.page = page
            self.marker = marker
        }
    }

    public struct Statistics: Sendable, Hashable, Codable {
        public var steps = 0
        public var restarts = 0
        public var busyRetries = 0
        public var pages = 0
    }

    /// Copies database `main` of `source` into `destination`.
    public static func copy(from source: Database, to destination: Database, options: Options = Options()) throws -> Statistics {
        guard let sourceHandle = source.sqliteConnection, let destinationHandle = destination.sqliteConnection else {
            throw StoreError.sqlite("backup: connection is closed")
        }
        guard let backup = sqlite3_backup_init(destinationHandle, "main", sourceHandle, "main") else {
            throw StoreError.sqlite("backup_init: \(String(cString: sqlite3_errmsg(destinationHandle)))")
        }
        var statistics = Statistics()
        var previousRemaining: Int32 = -1
        var code: Int32 = SQLITE_OK
        var copied = 0
        let channel = options.gate.flatMap(GateChannel.init)
        var retrying = false
        while true {
            if !retrying { channel?.awaitTurn() }
            var pages = options.pagesPerStep
            if let hold = options.hold, copied < hold.page {
                let toGo = Int32(clamping: hold.page - copied)
                pages = pages > 0 ? min(pages, toGo) : toGo
            }
            code = sqlite3_backup_step(backup, pages)
            statistics.steps += 1
            let remaining = sqlite3_backup_remaining(backup)
            statistics.pages = Int(sqlite3_backup_pagecount(backup))
            copied = statistics.pages - Int(remaining)
            if let hold = options.hold, copied >= hold.page, code == SQLITE_OK || code == SQLITE_DONE {
                holdForever(hold, copied: copied, total: statistics.pages)
            }
            retrying = code == SQLITE_BUSY || code == SQLITE_LOCKED
            if !retrying { channel?.say(code == SQLITE_DONE ? "done \(copied) \(statistics.pages)" : "step \(copied) \(statistics.pages)") }
            if code == SQLITE_DONE { break }
            if retrying {
                statistics.busyRetries += 1
                usleep(2_000)
                continue
            }
            guard code == SQLITE_OK else { break }
            if previousRemaining >= 0, options.pagesPerStep > 0, remaining >= previousRemaining {
                statistics.restarts += 1
                if let limit = options.maxRestarts, statistics.restarts > limit {
                    sqlite3_backup_finish(backup)
                    throw StoreError.sqlite("backup restarted \(statistics.restarts) times under concurrent writes and never finished")
                }
            }
            previousRemaining = remaining
            if options.stepDelay > 0, channel == nil { usleep(UInt32(options.stepDelay * 1_000_000)) }
        }
        let finish = sqlite3_backup_finish(backup)
        if code != SQLITE_DONE || finish != SQLITE_OK {
            throw StoreError.sqlite("backup step: \(String(cString: sqlite3_errstr(code == SQLITE_DONE ? finish : code)))")
        }
        return statistics
    }

    /// Announces the hold and never returns: the runner's crash kills this process.
    static func holdForever(_ hold: Hold, copied: Int, total: Int) -> Never {
        let note = "\(copied) \(total)\n"
        _ = FileManager.default.createFile(atPath: hold.marker + ".tmp", contents: Data(note.utf8))
        rename(hold.marker + ".tmp", hold.marker)
        while true { sleep(60) }
    }
}
