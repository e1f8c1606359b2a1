import Foundation
import GRDB

/// Which attributes of a store allow external storage (Core Data's "Allows External Storage": values of 100 KiB
/// and more kept as files in `.<Store>_SUPPORT/_EXTERNAL_DATA`). A store that has none has no attachments, and
/// nothing a backup does to that folder can be judged on it: `lifeboat try --store` then calls the attachments
/// situation "not exercised" instead of "held".
///
/// A store the harness wrote says so in its model (`Z_MODELCACHE`); a store Core Data wrote carries a compiled
/// model nobody reads here, so its binary columns are recognised by the marker byte Core Data writes before every
/// value of such an attribute (0x01 the value inline, 0x02 a file's name). The layout writer uses the same test
/// to choose the columns it writes attachments into, so "none" here means the writers add none either.
public enum ExternalStorageColumns {
    /// `TABLE.COLUMN` of every binary column of an entity table holding at least one value with the marker.
    public static func marked(_ db: Database, schema: StoreSchema) throws -> Set<String> {
        var found = Set<String>()
        for (table, columns) in schema.columns where schema.entities.contains(where: { $0.table == table }) {
            for column in columns where column.type.uppercased() == "BLOB" {
                let name = column.name.quotedDatabaseIdentifier
                let marked = try Bool.fetchOne(db, sql: """
                    SELECT EXISTS (SELECT 1 FROM \(table.quotedDatabaseIdentifier) WHERE typeof(\(name)) = 'blob'
                    AND substr(\(name), 1, 1) IN (x'01', x'02'))
                    """) ?? false
                if marked { found.insert(table + "." + column.name) }
            }
        }
        return found
    }

    /// The store's attributes that allow external storage, read on a private copy (`StoreSnapshot`): the model's
    /// (`Entity.attribute`) for a store of the harness's own, else the marked columns (`TABLE.COLUMN`). Empty:
    /// the store keeps no attachments. Throws what opening the store throws (missing, empty, not SQLite).
    public static func of(_ url: URL) throws -> [String] {
        let snapshot = try StoreSnapshot(of: url)
        do {
            let queue = try PlainConnection.open(snapshot.copy.database)
            defer { try? queue.close() }
            return try queue.read { db -> [String] in
                if try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'Z_MODELCACHE')") == true,
                   let row = try Row.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1"),
                   let cache = SafeColumn.blob(row, "Z_CONTENT"), let model = ModelCache.decode(cache) {
                    return model.entities.flatMap { entity in
                        entity.attributes.filter(\.allowsExternalStorage).map { "\(entity.name).\($0.name)" }
                    }.sorted()
                }
                return try marked(db, schema: StoreSchema.read(db)).sorted()
            }
        } catch let error as DatabaseError {
            throw StoreError.unopenable(url.path, reason: error.message ?? "\(error)")
        }
    }
}
