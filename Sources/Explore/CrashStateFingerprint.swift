import Crypto
import Foundation
import GRDB
import GRDBSQLite
import StoreModel

/// The recovered content of a crash state as SQLite itself sees it: SHA-256 over every page SQLite reads once it
/// has recovered the files (the database overlaid with the committed frames of the `-wal`, up to the page count
/// of the last commit). Two states with equal fingerprints are the same store to every reader, whatever their
/// bytes: a `-wal` with a torn or missing tail frame past its last commit recovers to the same pages as one
/// without it, and most states of a persistence point differ only there. The check of a state depends on those
/// pages and on the support folder, which every state shares, so one examination serves every state of a
/// fingerprint.
///
/// Recovery is SQLite's own (no parsing of the WAL format here): the state is opened read-only, which replays the
/// `-wal` into a `-shm` wal-index and never writes the database or the `-wal`; the `-shm` is removed afterwards so
/// the files checked are exactly the state's. A state SQLite cannot open read-only (a hot rollback journal needs a
/// writer to roll back, a damaged header) gets no fingerprint and is examined on its own.
enum CrashStateFingerprint {
    static func of(_ database: URL) -> String? {
        defer { unlink(database.path + "-shm") }
        guard (StoreFiles.size(database) ?? 0) > 0 else { return nil }
        if FileManager.default.fileExists(atPath: database.path + "-journal") { return nil }
        var configuration = Configuration()
        configuration.readonly = true
        configuration.foreignKeysEnabled = false
        guard let queue = try? DatabaseQueue(path: database.path, configuration: configuration) else { return nil }
        defer { try? queue.close() }
        return try? queue.inDatabase { db -> String? in
            // A read transaction pins one snapshot for the page count and the pages alike.
            try db.execute(sql: "BEGIN")
            defer { try? db.execute(sql: "COMMIT") }
            _ = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master")
            guard let connection = db.sqliteConnection else { return nil }
            var size: sqlite3_int64 = 0
            guard let bytes = sqlite3_serialize(connection, "main", &size, 0) else { return nil }
            defer { sqlite3_free(bytes) }
            var hasher = SHA256()
            hasher.update(bufferPointer: UnsafeRawBufferPointer(start: bytes, count: Int(size)))
            return Hex.string(hasher.finalize())
        }
    }
}
