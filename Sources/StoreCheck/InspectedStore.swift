import Foundation
import GRDB
import StoreModel

/// A store read from its layout alone: Z_PRIMARYKEY names the entities, table names follow from them, join
/// tables are recognised by Core Data's `Z_<n><REL>` naming. No model is needed, so `check` reads stores written
/// by Core Data on a Mac as well as the harness's own; where the harness's model is in Z_MODELCACHE, to-one key
/// columns are known too.
struct InspectedStore {
    struct Entity {
        var number: Int64
        var name: String
        var superNumber: Int64
        var max: Int64
        var table: String
    }

    struct JoinTable {
        var name: String
        /// "<owner entity>.<RELATIONSHIP>": the same key in two stores even when their entity numbers differ.
        var key: String
        var ownerColumn: String
        var ownerEntity: String
        var otherColumn: String
        var otherEntity: String
    }

    struct ToOne {
        var column: String
        var destinationTable: String
    }

    let files: StoreFiles
    let queue: DatabaseQueue
    var entities: [Entity] = []
    var columns: [String: [String]] = [:]
    var joinTables: [JoinTable] = []
    var model: ManagedObjectModel?
    var metadata: StoreMetadata?
    var metadataProblem: String?

    /// Opens read-only so checking never changes the evidence (no WAL checkpoint on close).
    static func open(_ url: URL) throws -> InspectedStore {
        let files = StoreFiles(url)
        guard files.exists else { throw StoreError.missingStore(url.path) }
        let queue: DatabaseQueue
        do {
            queue = try PlainConnection.open(files.database, readOnly: true)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch let error as DatabaseError {
            throw StoreError.notACoreDataStore(url.path, reason: error.message ?? "\(error)")
        }
        var store = InspectedStore(files: files, queue: queue)
        try queue.read { db in try store.load(db) }
        return store
    }

    private mutating func load(_ db: Database) throws {
        for table in try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table'") {
            columns[table] = try db.columns(in: table).map(\.name)
        }
        guard columns["Z_PRIMARYKEY"] != nil, columns["Z_METADATA"] != nil else {
            throw StoreError.notACoreDataStore(files.database.path, reason: "Z_PRIMARYKEY or Z_METADATA is missing")
        }
        var byNumber: [Int64: Entity] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            let entity = Entity(number: row["Z_ENT"] ?? 0, name: row["Z_NAME"] ?? "?", superNumber: row["Z_SUPER"] ?? 0,
                                max: row["Z_MAX"] ?? 0, table: "")
            byNumber[entity.number] = entity
        }
        for (number, var entity) in byNumber {
            var root = entity
            var hops = 0
            while root.superNumber != 0, let parent = byNumber[root.superNumber], hops < 64 { root = parent; hops += 1 }
            entity.table = StoreLayout.tableName(root.name)
            byNumber[number] = entity
        }
        entities = byNumber.values.sorted { $0.number < $1.number }
        do {
            if let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
               let plist = row["Z_PLIST"] as Data? {
                let decoded = try StoreMetadata(plistData: plist)
                metadata = decoded
                if let uuid = row["Z_UUID"] as String?, uuid != decoded.storeUUID {
                    metadataProblem = "Z_UUID \(uuid) differs from NSStoreUUID \(decoded.storeUUID)"
                }
            } else {
                metadataProblem = "no Z_METADATA row with Z_VERSION = 1 and a Z_PLIST"
            }
        } catch {
            metadataProblem = "\(error)"
        }
        if columns["Z_MODELCACHE"] != nil, let cache = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") {
            model = ModelCache.decode(cache)
        }
        joinTables = findJoinTables()
    }

    private func findJoinTables() -> [JoinTable] {
        let names = Dictionary(uniqueKeysWithValues: entities.map { ($0.number, $0.name) })
        var result: [JoinTable] = []
        for (table, tableColumns) in columns.sorted(by: { $0.key < $1.key }) {
            guard let (number, relationship) = Self.numbered(table), let owner = names[number] else { continue }
            let keyColumns = tableColumns.filter { Self.numbered($0) != nil }
            guard keyColumns.count == 2,
                  let other = keyColumns.first(where: { Self.numbered($0)?.1 == relationship }),
                  let ownerColumn = keyColumns.first(where: { $0 != other }),
                  let otherNumber = Self.numbered(other)?.0, let otherEntity = names[otherNumber]
            else { continue }
            result.append(JoinTable(name: table, key: "\(owner).\(relationship)", ownerColumn: ownerColumn,
                                    ownerEntity: owner, otherColumn: other, otherEntity: otherEntity))
        }
        return result
    }

    /// Splits `Z_<n><NAME>` into (n, NAME).
    static func numbered(_ name: String) -> (Int64, String)? {
        guard name.hasPrefix("Z_") else { return nil }
        let rest = name.dropFirst(2)
        let digits = rest.prefix { $0.isNumber }
        guard !digits.isEmpty, let number = Int64(digits), digits.count < rest.count else { return nil }
        return (number, String(rest.dropFirst(digits.count)))
    }

    /// Entity tables (one per root entity), with the entities stored in each.
    var entityTables: [(table: String, entities: [Entity])] {
        Dictionary(grouping: entities, by: \.table).map { ($0.key, $0.value) }.sorted { $0.table < $1.table }
    }

    func entity(number: Int64) -> Entity? { entities.first { $0.number == number } }

    /// The identity column of a table: the harness's UUID attribute where present.
    func identityColumn(_ table: String) -> String? {
        let name = StoreLayout.columnName(model?.identityAttribute ?? "lifeboatID")
        return columns[table]?.contains(name) == true ? name : nil
    }

    /// To-one key columns of a table, known only from the harness's model.
    func toOneColumns(_ table: String) -> [ToOne] {
        guard let model else { return [] }
        return model.entities.filter { StoreLayout.tableName($0.name) == table }.flatMap { entity in
            entity.relationships.filter { !$0.isToMany }.map {
                ToOne(column: StoreLayout.columnName($0.name), destinationTable: StoreLayout.tableName($0.destination))
            }
        }.filter { columns[table]?.contains($0.column) == true && columns[$0.destinationTable] != nil }
    }

    /// Columns whose BLOB values may carry the external-storage marker.
    func blobColumns(_ db: Database, _ table: String) throws -> [String] {
        try db.columns(in: table).filter { $0.type.uppercased() == "BLOB" }.map(\.name)
    }
}
