import Foundation
import GRDB

/// Inferred ("lightweight") migration: the changes Core Data maps without a mapping model.
///
/// Supported, in place and in one transaction: added entities, added optional attributes and to-one
/// relationships (new columns), added many-to-many relationships (new join tables), removed attributes (dropped
/// columns). Anything else (a changed type, an added required attribute) has no inferred mapping and stays the
/// 134100 error, so a careful caller can move the store aside instead of losing it.
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

    static func migrate(_ db: Database, store: String, metadata: StoreMetadata, numbers: [String: Int64],
                        to model: ManagedObjectModel) throws -> (StoreLayout, StoreMetadata) {
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
                        throw StoreError.incompatibleModel(store: store, differences: [
                            "\(entity.name): column \(column.name) changed type \(type) -> \(wantedType); no inferred mapping"])
                    }
                    continue
                }
                let isRequired = entity.attributes.contains {
                    StoreLayout.columnName($0.name) == column.name && !$0.isOptional
                }
                if isRequired {
                    throw StoreError.incompatibleModel(store: store, differences: [
                        "\(entity.name): required attribute \(column.name) added without a default; no inferred mapping"])
                }
                try db.execute(sql: "ALTER TABLE \(table) ADD COLUMN \(column.name) \(column.type)")
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
