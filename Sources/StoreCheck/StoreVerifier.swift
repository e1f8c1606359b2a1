import Foundation
import GRDB
import StoreModel

/// `lifeboat check STORE`: integrity, Core Data bookkeeping, external data, relationships and identities, read
/// from the layout, streaming row by row so memory stays flat whatever the store's size.
public enum StoreVerifier {
    /// Verifies one store. Throws only when the path holds nothing (bad input); a store that cannot be opened is
    /// reported with `unopenable` set (the CLI's exit 2) and everything wrong inside a store is a finding.
    ///
    /// `progress` hears each step as it starts ("copying the store", "integrity", ...), for a progress line on
    /// a large store.
    public static func verify(_ url: URL, limitPerKind: Int = CheckLimits.perKind, progress: ((String) -> Void)? = nil) throws -> CheckReport {
        let started = Date()
        var report = CheckReport(store: url.path, limitPerKind: limitPerKind)
        let store: InspectedStore
        do {
            progress?("reading a private copy of the store")
            store = try InspectedStore.open(url)
        } catch StoreError.missingStore(let path) {
            throw StoreError.missingStore(path)
        } catch {
            switch error as? StoreError {
            case .unopenable?, .notACoreDataStore?: report.unopenable = "\(error)"
            default: break
            }
            report.add(Finding(.violation, .unreadable, "\(error)"))
            report.seconds = Date().timeIntervalSince(started)
            return report
        }
        defer { try? store.queue.close() }
        do {
            try store.queue.read { db in
                progress?("integrity")
                try checkIntegrity(db, &report)
                checkMetadata(store, &report)
                progress?("bookkeeping")
                try checkBookkeeping(db, store, &report)
                progress?("external data")
                try checkExternalData(db, store, &report)
                progress?("relationships")
                try checkRelationships(db, store, &report)
                progress?("identities")
                try checkIdentities(db, store, &report)
                try checkMirroring(db, store, &report)
            }
            noteEmptyStore(&report)
        } catch {
            report.add(Finding(.violation, .unreadable, "reading the store failed: \(error)"))
        }
        report.seconds = Date().timeIntervalSince(started)
        return report
    }

    static func checkIntegrity(_ db: Database, _ report: inout CheckReport) throws {
        let messages: [String]
        do {
            messages = try String.fetchAll(db, sql: "PRAGMA integrity_check")
        } catch let error as DatabaseError {
            report.add(Finding(.violation, .integrity, "integrity_check failed: \(error.message ?? "\(error)")"))
            return
        }
        if messages != ["ok"] {
            for message in messages { report.add(Finding(.violation, .integrity, message)) }
        }
    }

    static func checkMetadata(_ store: InspectedStore, _ report: inout CheckReport) {
        if let problem = store.metadataProblem { report.add(Finding(.violation, .metadata, problem)) }
        if let problem = store.modelCacheProblem { report.add(Finding(.violation, .metadata, problem)) }
        for problem in store.schema.problems { report.add(Finding(.violation, .bookkeeping, problem)) }
        guard let metadata = store.metadata else { return }
        if metadata.storeType != "SQLite" { report.add(Finding(.violation, .metadata, "NSStoreType is \(metadata.storeType), not SQLite")) }
        // Persistent-history entities carry no version hash: they are Core Data's, not the model's.
        for entity in store.entities where !entity.isFramework && metadata.versionHashes[entity.name] == nil {
            report.add(Finding(.violation, .metadata, entity: entity.name, "entity has no version hash in NSStoreModelVersionHashes"))
        }
        if let model = store.model, model.versionHashes != metadata.versionHashes {
            report.add(Finding(.warning, .metadata, "Z_MODELCACHE holds model \(model.versionIdentifier), whose hashes differ from the metadata"))
        }
    }

    static func checkBookkeeping(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        for (table, entities) in store.entityTables {
            guard let tableColumns = store.columns[table] else {
                report.add(Finding(.violation, .bookkeeping, entity: entities.map(\.name).joined(separator: ","), "table \(table) is missing"))
                continue
            }
            guard ["Z_PK", "Z_ENT", "Z_OPT"].allSatisfy(tableColumns.contains) else {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name, "table \(table) lacks Z_PK, Z_ENT or Z_OPT"))
                continue
            }
            let numbers = entities.map { String($0.number) }.joined(separator: ",")
            let maxKey = entities.map(\.max).max() ?? 0
            // History rows have Z_OPT NULL by design: Core Data never updates them.
            let optionalOpt = entities.allSatisfy(\.isFramework)
            guard let row = try Row.fetchOne(db, sql: """
                SELECT max(Z_PK) AS maxpk, count(*) AS n, sum(typeof(Z_PK) != 'integer') AS badpk,
                       sum(Z_ENT NOT IN (\(numbers)) OR Z_ENT IS NULL) AS badent,
                       sum(\(optionalOpt ? "typeof(Z_OPT) NOT IN ('integer', 'null')" : "Z_OPT IS NULL OR typeof(Z_OPT) != 'integer' OR Z_OPT < 1")) AS badopt
                FROM \(table.q)
                """) else { continue }
            if let bad = SafeColumn.integer(row, "badpk"), bad > 0 {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name, "\(bad) rows of \(table) have a Z_PK that is not an integer"))
            } else if let highest = SafeColumn.integer(row, "maxpk"), highest > maxKey {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name,
                                   "Z_MAX is \(maxKey) but \(table) holds Z_PK \(highest): new objects would reuse keys"))
            }
            if let bad = SafeColumn.integer(row, "badent"), bad > 0 {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name, "\(bad) rows of \(table) have a Z_ENT outside {\(numbers)}"))
            }
            if let bad = SafeColumn.integer(row, "badopt"), bad > 0 {
                report.add(Finding(.violation, .bookkeeping, entity: entities[0].name, "\(bad) rows of \(table) have no valid Z_OPT"))
            }
            // CloudKit mirroring rows are the mirror's bookkeeping, not objects (StoreVerifier+CloudKit).
            for entity in entities where entity.framework != .cloudKit {
                report.objectCounts[entity.name] = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.q) WHERE Z_ENT = ?", arguments: [entity.number]) ?? 0
            }
        }
    }

    /// A store with entities and not one object passes every check, yet is seldom what a user meant to keep.
    static func noteEmptyStore(_ report: inout CheckReport) {
        guard !report.objectCounts.isEmpty, report.objectCounts.values.allSatisfy({ $0 == 0 }) else { return }
        report.add(Finding(.warning, .emptyStore, "the store holds no objects at all (\(report.objectCounts.count) entities, every one empty): "
                           + "if it is a backup or a copy, check that its -wal was copied with it (a WAL store keeps its latest commits there)"))
    }

    static func checkExternalData(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        var referenced = Set<String>()
        for (table, entities) in store.entityTables where store.columns[table] != nil {
            for column in store.blobColumns(table) {
                let rows = try Row.fetchCursor(db, sql: """
                    SELECT Z_PK, \(column.q) AS value FROM \(table.q)
                    WHERE typeof(\(column.q)) = 'blob' AND length(\(column.q)) = 38 AND substr(\(column.q), 1, 1) = x'02'
                    """)
                while let row = try rows.next() {
                    guard let data = SafeColumn.blob(row, "value"), case .external(let name)? = ExternalDataReference(encoded: data) else { continue }
                    report.externalReferences += 1
                    referenced.insert(name)
                    var info = stat()
                    let path = store.files.externalFile(name).path
                    if stat(path, &info) != 0 || (info.st_mode & S_IFMT) != S_IFREG {
                        let key = SafeColumn.value(row, "Z_PK").description
                        report.add(Finding(.violation, .missingExternalFile, entity: entities[0].name, object: "Z_PK \(key)",
                                           "\(column) refers to \(path), which is \(stat(path, &info) == 0 ? FileKind.describe(info.st_mode) : "missing")"))
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
                let dangling = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(join.name.q) j WHERE NOT EXISTS (SELECT 1 FROM \(table.q) t WHERE t.Z_PK = j.\(column.q))") ?? 0
                if dangling > 0 {
                    report.add(Finding(.violation, .danglingRelationship, entity: join.ownerEntity,
                                       "\(dangling) rows of join table \(join.name) point to missing rows of \(table) (\(column))"))
                }
            }
        }
        for (table, entities) in store.entityTables where store.columns[table] != nil {
            for toOne in store.toOneColumns(table) {
                let dangling = try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table.q) e WHERE e.\(toOne.column.q) IS NOT NULL AND NOT EXISTS (SELECT 1 FROM \(toOne.destinationTable.q) d WHERE d.Z_PK = e.\(toOne.column.q))") ?? 0
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
            let rows = try Row.fetchCursor(db, sql: "SELECT \(identity.q) AS id, count(*) AS n, group_concat(Z_PK) AS keys FROM \(table.q) GROUP BY \(identity.q) HAVING count(*) > 1")
            while let row = try rows.next() {
                let id = IdentityText.describe(row["id"])
                let count = SafeColumn.integer(row, "n") ?? 0
                let keys = SafeColumn.value(row, "keys").description
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
