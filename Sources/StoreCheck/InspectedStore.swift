import Foundation
import GRDB
import StoreModel

/// A store read from its layout alone (`StoreSchema`): Z_PRIMARYKEY names the entities, inheritance puts
/// sub-entities in their root's table, persistent-history entities live in `A` tables, join tables and to-one keys
/// are recognised by Core Data's naming. No model is needed, so `check` reads stores written by Core Data on a Mac
/// as well as the harness's own; where the harness's model is in Z_MODELCACHE, the identity column is known too.
///
/// The store is read through a private `StoreSnapshot` (a copy of the database and its `-wal`), so checking never
/// changes a byte in the store's folder, creates no file there, and works on read-only folders and file systems.
struct InspectedStore {
    typealias Entity = StoreSchema.Entity
    typealias JoinTable = StoreSchema.JoinTable
    typealias ToOne = StoreSchema.ToOne

    let files: StoreFiles
    let queue: DatabaseQueue
    /// Kept alive as long as the connection on it.
    let snapshot: StoreSnapshot
    var schema = StoreSchema()
    var model: ManagedObjectModel?
    var metadata: StoreMetadata?
    var metadataProblem: String?
    /// A problem of the model cache (an entity listed twice, ...): reported, and the cache is then not used.
    var modelCacheProblem: String?

    var entities: [Entity] { schema.entities }
    var joinTables: [JoinTable] { schema.joinTables }
    var columns: [String: [String]] { schema.columns.mapValues { $0.map(\.name) } }

    /// Opens a private copy of the store. Throws `missingStore` when nothing is there, `unopenable` when SQLite (or
    /// the file system) cannot open it, with their own reason, and `notACoreDataStore` when it opens but lacks
    /// Core Data's bookkeeping tables.
    static func open(_ url: URL) throws -> InspectedStore {
        let snapshot = try StoreSnapshot(of: url)
        let queue: DatabaseQueue
        do {
            queue = try PlainConnection.open(snapshot.copy.database)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch let error as DatabaseError {
            throw Self.classify(error, url)
        }
        var store = InspectedStore(files: snapshot.original, queue: queue, snapshot: snapshot)
        do {
            try queue.read { db in try store.load(db) }
        } catch let error as DatabaseError {
            try? queue.close()
            throw Self.classify(error, url)
        } catch {
            try? queue.close()
            throw error
        }
        return store
    }

    /// A database whose pages are damaged is a store with a violation (exit 1); one SQLite cannot open at all
    /// (not a database, unreadable) is bad input (exit 2).
    static func classify(_ error: DatabaseError, _ url: URL) -> StoreError {
        let reason = error.message ?? "\(error)"
        if error.resultCode == .SQLITE_CORRUPT { return .sqlite("\(url.path) is damaged: \(reason)") }
        return .unopenable(url.path, reason: reason)
    }

    private mutating func load(_ db: Database) throws {
        if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE')") == true,
           let row = try Row.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1"),
           let cache = SafeColumn.blob(row, "Z_CONTENT") {
            model = ModelCache.decode(cache)
            if ModelCache.isLifeboatCache(cache), model == nil {
                modelCacheProblem = "Z_MODELCACHE holds a Lifeboat model that does not decode (or lists an entity twice)"
            }
        }
        schema = try StoreSchema.read(db, model: model)
        guard schema.isCoreDataStore else {
            throw StoreError.notACoreDataStore(files.database.path, reason: "Z_PRIMARYKEY or Z_METADATA is missing")
        }
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") else {
            metadataProblem = "no Z_METADATA row with Z_VERSION = 1"
            return
        }
        guard let plist = SafeColumn.blob(row, "Z_PLIST") else {
            metadataProblem = "Z_METADATA.Z_PLIST is \(SafeColumn.kind(row, "Z_PLIST")), not a binary plist"
            return
        }
        let uuid = SafeColumn.text(row, "Z_UUID")
        if uuid == nil, !SafeColumn.isNull(row, "Z_UUID") {
            metadataProblem = "Z_METADATA.Z_UUID is \(SafeColumn.kind(row, "Z_UUID")), not text"
        }
        do {
            metadata = try StoreMetadata(plistData: plist, uuid: uuid)
        } catch {
            metadataProblem = "\(error)"
        }
    }

    /// Entity tables (one per root entity), with the entities stored in each.
    var entityTables: [(table: String, entities: [Entity])] { schema.entityTables }

    func entity(number: Int64) -> Entity? { schema.entity(number: number) }
    func entity(named name: String) -> Entity? { schema.entity(named: name) }

    /// The identity column of a table: the harness's UUID attribute where present.
    func identityColumn(_ table: String) -> String? {
        guard let model else { return nil }
        let name = StoreLayout.columnName(model.identityAttribute)
        return columns[table]?.contains(name) == true ? name : nil
    }

    /// To-one key columns of a table whose target table is known and present.
    func toOneColumns(_ table: String) -> [(column: String, destinationTable: String)] {
        (schema.toOnes[table] ?? []).compactMap { toOne in
            guard let destination = toOne.destinationTable, columns[destination] != nil else { return nil }
            return (toOne.column, destination)
        }
    }

    /// Columns whose BLOB values may carry the external-storage marker.
    func blobColumns(_ table: String) -> [String] {
        (schema.columns[table] ?? []).filter { $0.type.uppercased() == "BLOB" }.map(\.name)
    }
}

extension String {
    /// The name quoted for SQL: table and column names come from the store and may hold anything.
    var q: String { quotedDatabaseIdentifier }
}
