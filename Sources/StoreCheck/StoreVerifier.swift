import Foundation
import GRDB
import StoreModel

/// `lifeboat check STORE`: integrity, Core Data bookkeeping, external data, relationships and identities, read
/// from the layout, streaming row by row so memory stays flat whatever the store's size.
public enum StoreVerifier {
    /// Verifies one store. Throws only when the path holds no store at all (bad input); everything wrong inside a
    /// store is a finding.
    public static func verify(_ url: URL) throws -> CheckReport {
        let started = Date()
        var report = CheckReport(store: url.path)
        let store: InspectedStore
        do {
            store = try InspectedStore.open(url)
        } catch StoreError.missingStore(let path) {
            throw StoreError.missingStore(path)
        } catch {
            report.add(Finding(.violation, .unreadable, "\(error)"))
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        defer { try? store.queue.close() }
        do {
            try store.queue.read { db in
                try checkIntegrity(db, &report)
                checkMetadata(store, &report)
                try checkBookkeeping(db, store, &report)
                try checkExternalData(db, store, &report)
                try checkRelationships(db, store, &report)
                try checkIdentities(db, store, &report)
            }
        } catch {
            report.add(Finding(.violation, .unreadable, "reading the store failed: \(error)"))
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    static func checkIntegrity(_ db: Database, _ report: inout CheckReport) throws {
        let messages = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        if messages != ["ok"] {
            for message in messages { report.add(Finding(.violation, .integrity, message)) }
        }
    }

    static func checkMetadata(_ store: InspectedStore, _ report: inout CheckReport) {
        if let problem = store.metadataProblem { report.add(Finding(.violation, .metadata, problem)) }
        guard let metadata = store.metadata else { return }
        if metadata.storeType != "SQLite" { report.add(Finding(.violation, .metadata, "NSStoreType is \(metadata.storeType), not SQLite")) }
        for entity in store.entities where metadata.versionHashes[entity.name] == nil {
            report.add(Finding(.violation, .metadata, entity: entity.name, "entity has no version hash in NSStoreModelVersionHashes"))
        }
        if let model = store.model, model.versionHashes != metadata.versionHashes {
            report.add(Finding(.warning, .metadata, "Z_MODELCACHE holds model \(model.versionIdentifier), whose hashes differ from the metadata"))
        }
    }

    static func checkBookkeeping(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        for (table, entities) in store.entityTables {
            guard store.columns[table] != nil else {
                report.add(Finding(.violation, .bookkeeping, entity: entities.map(\.name).joined(separator: ","), "table \(table) is missing"))
                continue
            }
            let numbers = entities.map { String($0.number) }.joined(separator: ",")
            let maxKey = entities.map(\.max).max() ?? 0
            let row = try Row.fetchOne(db, sql: """
                SELECT max(Z_PK) AS maxpk, count(*) AS n,
                       sum(Z_ENT NOT IN (\(numbers)) OR Z_ENT IS NULL) AS badent,
                       sum(Z_OPT IS NULL OR Z_OPT < 1) AS badopt
                FROM \(table)
                """)
            let highest: Int64 = row?["maxpk"] ?? 0
            if highest > maxKey {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name,
                                   "Z_MAX is \(maxKey) but \(table) holds Z_PK \(highest): new objects would reuse keys"))
            }
            if let bad = row?["badent"] as Int64?, bad > 0 {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name, "\(bad) rows of \(table) have a Z_ENT outside {\(numbers)}"))
            }
            if let bad = row?["badopt"] as Int64?, bad > 0 {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name, "\(bad) rows of \(table) have no valid Z_OPT"))
            }
            for entity in entities {
                report.objectCounts[entity.name] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) WHERE Z_ENT = ?", arguments: [entity.number]) ?? 0
            }
        }
    }

    static func checkExternalData(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        var referenced = Set<String>()
        for (table, entities) in store.entityTables where store.columns[table] != nil {
            for column in try store.blobColumns(db, table) {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT Z_PK, \(column) AS value FROM \(table)
                    WHERE typeof(\(column)) = 'blob' AND length(\(column)) = 38 AND substr(\(column), 1, 1) = x'02'
                    """)
                while let row = try rows.next() {
                    guard let data = row["value"] as Data?, case .external(let name)? = ExternalDataReference(encoded: data) else { continue }
                    report.externalReferences += 1
                    referenced.insert(name)
                    var info = stat()
                    let path = store.files.externalFile(name).path
                    if stat(path, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG {
                        let key: Int64 = row["Z_PK"]
                        report.add(Finding(.violation, .missingExternalFile, entity: entities[0].name, object: "Z_PK \(key)",
                                           "\(column) refers to \(path), which does not exist"))
                    } else if access(path, R_OK) != 0 {
                        report.add(Finding(.violation, .missingExternalFile, entity: entities[0].name, "\(path) is not readable"))
                    }
                }
            }
        }
        let names = store.files.externalFileNames()
        report.externalFiles = names.count
        for name in names where !referenced.contains(name) {
            report.add(Finding(.warning, .orphanExternalFile, "\(store.files.externalFile(name).path) is referenced by no object"))
        }
    }

    static func checkRelationships(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        for join in store.joinTables {
            guard let ownerTable = store.entities.first(where: { $0.name == join.ownerEntity })?.table,
                  let otherTable = store.entities.first(where: { $0.name == join.otherEntity })?.table,
                  store.columns[ownerTable] != nil, store.columns[otherTable] != nil else { continue }
            for (column, table) in [(join.ownerColumn, ownerTable), (join.otherColumn, otherTable)] {
                let dangling = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(join.name) j WHERE NOT EXISTS (SELECT 1 FROM \(table) t WHERE t.Z_PK = j.\(column))") ?? 0
                if dangling > 0 {
                    report.add(Finding(.violation, .danglingRelationship, entity: join.ownerEntity,
                                       "\(dangling) rows of join table \(join.name) point to missing rows of \(table) (\(column))"))
                }
            }
        }
        for (table, entities) in store.entityTables where store.columns[table] != nil {
            for toOne in store.toOneColumns(table) {
                let dangling = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table) e WHERE e.\(toOne.column) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(toOne.destinationTable) d WHERE d.Z_PK = e.\(toOne.column))") ?? 0
                if dangling > 0 {
                    report.add(Finding(.violation, .danglingRelationship, entity: entities[0].name,
                                       "\(dangling) rows of \(table) have \(toOne.column) pointing to missing rows of \(toOne.destinationTable)"))
                }
            }
        }
    }

    static func checkIdentities(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        for (table, entities) in store.entityTables where store.columns[table] != nil {
            guard let identity = store.identityColumn(table) else { continue }
            let rows = try Row.fetchCursor(db, sql: "SELECT \(identity) AS id, count(*) AS n, group_concat(Z_PK) AS keys FROM \(table) GROUP BY \(identity) HAVING count(*) > 1")
            while let row = try rows.next() {
                let id = IdentityText.describe(row["id"])
                let count: Int = row["n"]
                let keys: String = row["keys"] ?? ""
                report.add(Finding(.violation, .duplicateIdentity, entity: entities[0].name, object: id,
                                   "stored \(count) times (Z_PK \(keys)): the same object was copied twice"))
            }
        }
    }
}

/// Renders an identity column value (a 16-byte UUID, or anything else) for evidence.
enum IdentityText {
    static func describe(_ value: DatabaseValue?) -> String {
        guard let value else { return "nil" }
        if let data = Data.fromDatabaseValue(value), data.count == 16 {
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { $0.copyBytes(from: data) }
            return UUID(uuid: bytes).uuidString
        }
        return value.description
    }
}
