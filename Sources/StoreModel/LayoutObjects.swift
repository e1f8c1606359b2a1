import Crypto
import Foundation
import GRDB

/// Objects of a store read from its layout alone, as the oracle compares them when a drill runs on a user's own
/// store (which has no identity attribute): an object is named by its table and `Z_PK` (primary keys are never
/// reused: `Z_MAX` only grows), and its state is a hash of its columns (bookkeeping aside), external data by
/// content, and the many-to-many links it owns.
///
/// Writers that derive their work from the layout and checkers that read any copy of the store compute the same
/// hash through this one function, so a history written by a writer matches what a backup shows.
public enum LayoutObjects {
    /// The identity of the row `key` of `table`: a name-based UUID, the same in every copy that kept its keys.
    public static func identity(table: String, key: Int64) -> UUID {
        let digest = SHA256.hash(data: Data("\(table)|\(key)".utf8))
        var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: Data(digest.prefix(16))) }
        return UUID(uuid: bytes)
    }

    /// One object: identity, entity name, state hash, and whether an external data file it names is missing.
    public struct Object: Sendable, Hashable {
        public var id: UUID
        public var entity: String
        public var hash: String
        public var missingExternalData: Bool
    }

    /// Every object of the store's entities (persistent-history rows aside: Core Data writes them on every save).
    public static func all(_ db: Database, schema: StoreSchema, files: StoreFiles) throws -> [Object] {
        var result: [Object] = []
        for (table, entities) in schema.entityTables where schema.columns[table] != nil && !entities.contains(where: \.isFramework) {
            let keys = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(table.quotedDatabaseIdentifier) WHERE typeof(Z_PK) = 'integer' ORDER BY Z_PK")
            for key in keys {
                if let object = try object(db, schema: schema, files: files, table: table, key: key) { result.append(object) }
            }
        }
        return result
    }

    /// The object in row `key` of `table`, or nil when there is none.
    public static func object(_ db: Database, schema: StoreSchema, files: StoreFiles, table: String, key: Int64) throws -> Object? {
        guard let row = try Row.fetchOne(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) WHERE Z_PK = ?", arguments: [key]) else {
            return nil
        }
        let names = Dictionary(schema.entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        let entity = SafeColumn.integer(row, "Z_ENT").flatMap { names[$0] } ?? "?"
        var hasher = SHA256()
        var missing = false
        hasher.update(data: Data("\(entity)|\(table)|\(key)".utf8))
        for column in row.columnNames.sorted() where column != "Z_PK" && column != "Z_OPT" {
            hasher.update(data: Data("|\(column)=".utf8))
            let value = SafeColumn.value(row, column)
            if case .blob(let data) = value.storage, case .external(let name)? = ExternalDataReference(encoded: data) {
                if let content = try? readRegular(files.externalFile(name)) {
                    hasher.update(data: Data("x\(content.count):".utf8))
                    hasher.update(data: content)
                } else {
                    missing = true
                    hasher.update(data: Data("missing".utf8))
                }
            } else if case .blob(let data) = value.storage {
                hasher.update(data: Data("b\(data.count):".utf8))
                hasher.update(data: data)
            } else {
                hasher.update(data: Data(value.description.utf8))
            }
        }
        for join in schema.joinTables where schema.entity(named: join.ownerEntity)?.table == table {
            let targets = try Int64.fetchAll(db, sql: """
                SELECT \(join.otherColumn.quotedDatabaseIdentifier) FROM \(join.name.quotedDatabaseIdentifier)
                WHERE \(join.ownerColumn.quotedDatabaseIdentifier) = ? AND typeof(\(join.otherColumn.quotedDatabaseIdentifier)) = 'integer'
                ORDER BY 1
                """, arguments: [key])
            if !targets.isEmpty { hasher.update(data: Data("|>>\(join.key)=\(targets.map(String.init).joined(separator: ","))".utf8)) }
        }
        let hash = Hex.string(hasher.finalize().prefix(12))
        return Object(id: identity(table: table, key: key), entity: entity, hash: hash, missingExternalData: missing)
    }

    /// Reads a file only if it is a regular one (a FIFO would block).
    static func readRegular(_ url: URL) throws -> Data {
        try StoreSnapshot.requireRegularFile(url, what: "external data file")
        return try Data(contentsOf: url)
    }
}
