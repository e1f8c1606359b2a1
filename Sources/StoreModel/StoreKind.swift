import Foundation
import GRDB

/// Whose layout a store has, which decides how the coordinator's operations treat it.
///
/// A store that carries this harness's model in `Z_MODELCACHE` is operated on through that model (object by
/// object, with its identities, error 134100 and lightweight migration); any other Core Data store (one an app
/// wrote on a Mac or an iPhone) is operated on from its layout alone (`StoreSchema`, `LayoutMigration`).
public enum StoreKind: Sendable, Equatable {
    case harness
    case layout

    /// Reads the kind through a read-only connection. Throws `unopenable` when SQLite cannot open the file.
    public static func of(_ url: URL) throws -> StoreKind {
        try StoreSnapshot.requireRegularFile(StoreFiles(url).database, what: "the store")
        let queue = try LayoutMigration.openReadOnly(StoreFiles(url).database)
        defer { try? queue.close() }
        do {
            return try queue.read { db in
                guard try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE')") == true,
                      let row = try Row.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1"),
                      let cache = SafeColumn.blob(row, "Z_CONTENT"), ModelCache.isLifeboatCache(cache)
                else { return .layout }
                return .harness
            }
        } catch let error as DatabaseError {
            throw StoreError.unopenable(url.path, reason: error.message ?? "\(error)")
        }
    }

    /// Proves a store can be read whole before anything is done on its strength (a restore reads its backup
    /// before it touches the live store): a regular file, opened read-only by SQLite, `quick_check` ok, Core
    /// Data's bookkeeping tables and metadata readable. Throws `unreadableBackup` with the reason.
    public static func requireReadable(_ url: URL) throws {
        let files = StoreFiles(url)
        do {
            try StoreSnapshot.requireRegularFile(files.database, what: "the backup")
            let queue = try LayoutMigration.openReadOnly(files.database)
            defer { try? queue.close() }
            try queue.read { db in
                let messages = try String.fetchAll(db, sql: "PRAGMA quick_check")
                guard messages == ["ok"] else { throw StoreError.sqlite("quick_check: " + messages.prefix(3).joined(separator: "; ")) }
                let schema = try StoreSchema.read(db)
                guard schema.isCoreDataStore else { throw StoreError.sqlite("no Z_PRIMARYKEY or Z_METADATA: not a Core Data store") }
                if let problem = schema.problems.first { throw StoreError.badMetadata(problem) }
                guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
                      let plist = SafeColumn.blob(row, "Z_PLIST") else { throw StoreError.badMetadata("no Z_METADATA row with a Z_PLIST") }
                _ = try StoreMetadata(plistData: plist, uuid: SafeColumn.text(row, "Z_UUID"))
            }
        } catch let error as StoreError {
            throw StoreError.unreadableBackup(url.path, reason: "\(error)")
        } catch let error as DatabaseError {
            throw StoreError.unreadableBackup(url.path, reason: error.message ?? "\(error)")
        }
    }
}
