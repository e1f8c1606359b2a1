import Foundation
import GRDB

/// Inferred ("lightweight") migration: the changes Core Data maps without a mapping model.
///
/// Supported, in place and in one transaction: added entities, added optional attributes and to-one
/// relationships (new columns), added required attributes with a default (existing rows get it) or over an
/// empty table, added many-to-many relationships (new join tables), removed attributes (dropped columns).
/// Errors as Core Data reports them (decompiled iOS 26.1 migration code; app reports of 134110): 134130 when
/// the source model cannot be found (here: the store's `Z_MODELCACHE` is missing or unreadable), 134140 when no
/// mapping can be inferred (a changed type), 134110 when the migration cannot be done in place (a new required
/// attribute with no default over existing rows). 134100 is only for a store opened without both options. The
/// store is left as it was in every case.
enum LightweightMigration {
    /// Human-readable differences between the stored hashes and a model, for the 134100 error.
    static func differences(stored: [String: Data], model: ManagedObjectModel) -> [String] {
        var result: [String] = []
        for entity in model.entities {
            guard let hash = stored[entity.name] else { result.append("entity \(entity.name) is new"); continue }
            if hash != entity.versionHash { result.append("entity \(entity.name) changed") }
        }
        for name in stored.keys.sorted() where model.entity(named: name) == nil {
            result.append("entity \(name) was removed")
        }
        return result
    }

    /// With `infer` off (NSInferMappingModelAutomaticallyOption not set) Core Data needs a mapping model the app
    /// ships; the model has none, so once the source model is found the migration stops at 134140.
    static func migrate(_ db: Database, store: String, metadata: StoreMetadata, numbers: [String: Int64],
                        to model: ManagedObjectModel, infer: Bool = true, differences: [String] = []) throws -> (StoreLayout, StoreMetadata) {
        let cache = try db.tableExists("Z_MODELCACHE") ? try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1") : nil
        guard let cache, ModelCache.decode(cache) != nil else { throw StoreError.missingSourceModel(store: store) }
        guard infer else {
            throw StoreError.noInferredMapping(store: store, differences: differences
                + ["NSInferMappingModelAutomaticallyOption is off and the app ships no mapping model"])
        }
        var numbers = numbers
        var next = (numbers.values.max() ?? 0) + 1
        for entity in model.entities where numbers[entity.name] == nil {
            numbers[entity.name] = next
            next += 1
        }
        let layout = StoreLayout(model: model, entityNumbers: numbers)
        for entity in model.entities {
            let table = layout.table(entity.name)
            guard metadata.versionHashes[entity.name] != nil, try db.tableExists(table) else {
                if try !db.tableExists(table) { for statement in layout.entityDDL(entity) { try db.execute(sql: statement) } }
                try db.execute(sql: "INSERT OR REPLACE INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                               arguments: [layout.number(entity.name), entity.name, layout.superNumber(entity.name)])
                continue
            }
            let existing = Dictionary(
                try db.columns(in: table).map { ($0.name.uppercased(), $0.type.uppercased()) },
                uniquingKeysWith: { first, _ in first })
            let wanted = layout.columns(entity)
            for column in wanted {
                if let type = existing[column.name] {
                    let wantedType = column.type.components(separatedBy: " ")[0]
                    if type != wantedType {
                        throw StoreError.noInferredMapping(store: store, differences: [
                            "\(entity.name): column \(column.name) changed type \(type) -> \(wantedType)"])
                    }
                    continue
                }
                let attribute = entity.attributes.first { StoreLayout.columnName($0.name) == column.name }
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column.name) \(column.type)")
                guard let attribute, !attribute.isOptional else { continue }
                let own = layout.rowFilter(entity.name).map { " WHERE \($0)" } ?? ""
                if let value = attribute.defaultValue {
                    try db.execute(sql: "UPDATE \(table) SET \(column.name) = ?\(own)", arguments: [try ColumnCoding.encode(value, attribute)])
                } else if try (Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)\(own)") ?? 0) > 0 {
                    throw StoreError.cannotMigrateInPlace(store: store, reason:
                        "Validation error missing attribute values on mandatory destination attribute \(entity.name).\(attribute.name)")
                }
            }
            let wantedNames = Set(wanted.map(\.name))
            for name in existing.keys.sorted() where !wantedNames.contains(name) {
                try db.execute(sql: "ALTER TABLE \(table) DROP COLUMN \(name)")
            }
        }
        for join in layout.joinTables where try !db.tableExists(join.name) {
            for statement in layout.joinTableDDL(join) { try db.execute(sql: statement) }
        }
        var updated = StoreMetadata(storeUUID: metadata.storeUUID, model: model)
        updated.otherKeys = metadata.otherKeys
        try PersistentStore.writeMetadata(db, updated)
        try db.execute(sql: "DELETE FROM Z_MODELCACHE")
        try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [try ModelCache.encode(model)])
        return (layout, updated)
    }
}
