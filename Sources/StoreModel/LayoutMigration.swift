import Foundation
import GRDB

/// `migratePersistentStore` for a store this harness has no model of (one an app wrote): its entities, key
/// columns and join tables are read from its layout (`StoreSchema`), and every object is inserted into the
/// destination with its attribute values, to-one keys, many-to-many links and external data.
///
/// It keeps migrate's documented behaviour: a missing or empty destination gets the source's schema and the
/// objects; an existing destination of the same model is appended to, each object getting a new primary key
/// above the destination's `Z_MAX`, so migrating twice into one backup duplicates every object. A destination of
/// another model is refused with error 134100, and a uniqueness constraint the append would break fails the whole
/// migration (Core Data's constraint conflict) with the destination left as it was.
///
/// The source is opened read-only and never written: no journal-mode switch, no checkpoint.
public enum LayoutMigration {
    public struct Options: Sendable, Hashable {
        /// The destination's journal mode when it is created (an existing destination keeps its own).
        public var journalMode: StoreOptions.JournalMode = .wal
        public var vacuum = false
        public init(journalMode: StoreOptions.JournalMode = .wal, vacuum: Bool = false) {
            self.journalMode = journalMode
            self.vacuum = vacuum
        }
    }

    public static func migrate(from source: URL, to destination: URL, options: Options = Options()) throws -> MigrateReport {
        let sourceFiles = StoreFiles(source), destinationFiles = StoreFiles(destination)
        try StoreSnapshot.requireRegularFile(sourceFiles.database, what: "the source store")
        guard sourceFiles != destinationFiles else { throw StoreError.io("migrate: source and destination are the same store") }
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        let sourceQueue = try openReadOnly(sourceFiles.database)
        defer { try? sourceQueue.close() }
        let destinationQueue: DatabaseQueue
        do {
            destinationQueue = try PlainConnection.open(destinationFiles.database)
        } catch let error as DatabaseError {
            throw StoreError.unopenable(destination.path, reason: error.message ?? "\(error)")
        }
        defer { try? destinationQueue.close() }
        var report = MigrateReport()
        var writtenFiles: [String] = []
        do {
            try sourceQueue.read { sourceDB in
                let schema = try StoreSchema.read(sourceDB)
                guard schema.isCoreDataStore else {
                    throw StoreError.notACoreDataStore(source.path, reason: "Z_PRIMARYKEY or Z_METADATA is missing")
                }
                if let problem = schema.problems.first { throw StoreError.badMetadata("\(source.path): \(problem)") }
                let fresh = try destinationQueue.inDatabase { db in
                    try (Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master") ?? 0) == 0
                }
                if fresh {
                    try destinationQueue.inDatabase { db in
                        try db.execute(sql: "PRAGMA journal_mode = \(options.journalMode.rawValue.uppercased())")
                    }
                }
                try destinationQueue.inDatabase { destinationDB in
                    try destinationDB.inTransaction(.immediate) {
                        var copier = Copier(source: sourceDB, destination: destinationDB, schema: schema, sourceFiles: sourceFiles,
                                            destinationFiles: destinationFiles, fresh: fresh)
                        defer { writtenFiles = copier.writtenFiles }
                        try copier.run(&report)
                        return .commit
                    }
                }
            }
        } catch {
            for name in writtenFiles { unlink(destinationFiles.externalFile(name).path) }
            if let database = error as? DatabaseError {
                throw StoreError.sqlite("migrate \(source.path) to \(destination.path): \(database.message ?? "\(database)")")
            }
            throw error
        }
        if options.vacuum { try destinationQueue.inDatabase { try $0.execute(sql: "VACUUM") } }
        return report
    }

    /// A read-only connection: reading a store changes nothing in it (no journal-mode switch, no checkpoint on
    /// close, no recovery written back).
    static func openReadOnly(_ url: URL) throws -> DatabaseQueue {
        do {
            let queue = try PlainConnection.open(url, readOnly: true)
            _ = try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
            return queue
        } catch let error as DatabaseError {
            throw StoreError.unopenable(url.path, reason: error.message ?? "\(error)")
        }
    }

    /// One migration: the schema (for a fresh destination), then the rows, table by table.
    struct Copier {
        let source: Database
        let destination: Database
        let schema: StoreSchema
        let sourceFiles: StoreFiles
        let destinationFiles: StoreFiles
        let fresh: Bool
        var writtenFiles: [String] = []
        /// Added to every primary key and every key column: the destination's highest key, so appended objects
        /// never collide with the ones already there (zero for a fresh destination).
        var offset: Int64 = 0
        /// Source Z_ENT -> destination Z_ENT, by entity name.
        var entityNumbers: [Int64: Int64] = [:]

        init(source: Database, destination: Database, schema: StoreSchema, sourceFiles: StoreFiles,
             destinationFiles: StoreFiles, fresh: Bool) {
            self.source = source
            self.destination = destination
            self.schema = schema
            self.sourceFiles = sourceFiles
            self.destinationFiles = destinationFiles
            self.fresh = fresh
        }

        mutating func run(_ report: inout MigrateReport) throws {
            if fresh {
                try createSchema()
            } else {
                try prepareAppend(&report)
            }
            for (table, entities) in schema.entityTables where schema.columns[table] != nil {
                try copyEntityTable(table, entities: entities, &report)
            }
            for join in schema.joinTables { try copyJoinTable(join) }
            if fresh { try copyOtherTables() }
            try updateMaxKeys()
        }

        /// Creates the source's tables and indexes (virtual tables too, which make their own shadow tables), and
        /// copies the bookkeeping: entity numbers, metadata with a new store UUID, the model cache.
        func createSchema() throws {
            let shadows = Set(schema.shadowTables)
            for statement in schema.statements where statement.type == "table" && !shadows.contains(statement.table) {
                try destination.execute(sql: statement.sql)
            }
            for statement in schema.statements where statement.type == "index" && !shadows.contains(statement.table) {
                try destination.execute(sql: statement.sql)
            }
            for row in try Row.fetchAll(source, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'") {
                if let sql = SafeColumn.text(row, "sql") { try destination.execute(sql: sql) }
            }
            for entity in schema.entities {
                try destination.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                        arguments: [entity.number, entity.name, entity.superNumber])
            }
            if let row = try Row.fetchOne(source, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") {
                try destination.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                        arguments: [UUID().uuidString, SafeColumn.value(row, "Z_PLIST")])
            }
            if schema.columns["Z_MODELCACHE"] != nil {
                try destination.execute(sql: "DELETE FROM Z_MODELCACHE")
                for row in try Row.fetchAll(source, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE") {
                    try destination.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [SafeColumn.value(row, "Z_CONTENT")])
                }
            }
        }

        /// An existing destination: the same model (version hashes) or error 134100; keys go above its highest.
        mutating func prepareAppend(_ report: inout MigrateReport) throws {
            let target = try StoreSchema.read(destination)
            guard target.isCoreDataStore else {
                throw StoreError.notACoreDataStore(destinationFiles.database.path, reason: "it exists and is not empty, but has no Z_PRIMARYKEY or Z_METADATA")
            }
            let mine = try Self.versionHashes(source), theirs = try Self.versionHashes(destination)
            if mine != theirs {
                let differences = Set(mine.keys).symmetricDifference(theirs.keys).sorted() +
                    Set(mine.keys).intersection(theirs.keys).filter { mine[$0] != theirs[$0] }.sorted()
                throw StoreError.incompatibleModel(store: destinationFiles.database.path,
                                                   differences: differences.prefix(10).map { "entity \($0) differs" })
            }
            for entity in schema.entities {
                guard let other = target.entity(named: entity.name) else {
                    throw StoreError.incompatibleModel(store: destinationFiles.database.path, differences: ["no entity \(entity.name)"])
                }
                entityNumbers[entity.number] = other.number
            }
            var highest: Int64 = target.entities.map(\.max).max() ?? 0
            for (table, entities) in target.entityTables where target.columns[table] != nil && !entities.isEmpty {
                let row = try Row.fetchOne(destination, sql: "SELECT max(Z_PK) AS m, count(*) AS n FROM \(table.quotedDatabaseIdentifier)")
                highest = Swift.max(highest, row.flatMap { SafeColumn.integer($0, "m") } ?? 0)
                report.objectsAlreadyInDestination += Int(row.flatMap { SafeColumn.integer($0, "n") } ?? 0)
            }
            offset = highest
        }

        static func versionHashes(_ db: Database) throws -> [String: Data] {
            guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
                  let plist = SafeColumn.blob(row, "Z_PLIST") else { return [:] }
            return try StoreMetadata(plistData: plist, uuid: SafeColumn.text(row, "Z_UUID") ?? "-").versionHashes
        }

        func shifted(_ value: DatabaseValue) throws -> DatabaseValue {
            guard offset != 0, case .int64(let key) = value.storage else { return value }
            let (sum, overflow) = key.addingReportingOverflow(offset)
            guard !overflow else { throw StoreError.invalidObject("primary key \(key) + \(offset) overflows") }
            return sum.databaseValue
        }

        mutating func copyEntityTable(_ table: String, entities: [StoreSchema.Entity], _ report: inout MigrateReport) throws {
            guard let columns = schema.columns[table]?.map(\.name), !columns.isEmpty else { return }
            let keyColumns = Set(["Z_PK"] + (schema.toOnes[table] ?? []).map(\.column) + (entities.contains(where: \.isHistory) ? ["ZENTITYPK"] : []))
            let entityColumns = Set(columns.filter { name in
                name == "Z_ENT" || name == "ZENTITY" && entities.contains(where: \.isHistory) || StoreSchema.isEntityTypeColumn(name)
            })
            let blobColumns = Set(schema.columns[table]?.filter { $0.type.uppercased() == "BLOB" }.map(\.name) ?? [])
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let insert = try destination.makeStatement(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
            let rows = try Row.fetchCursor(source, sql: "SELECT \(list) FROM \(table.quotedDatabaseIdentifier) ORDER BY Z_PK")
            while let row = try rows.next() {
                var values: [DatabaseValue] = []
                for column in columns {
                    var value = SafeColumn.value(row, column)
                    if keyColumns.contains(column) {
                        value = try shifted(value)
                    } else if entityColumns.contains(column), case .int64(let number) = value.storage, let mapped = entityNumbers[number] {
                        value = mapped.databaseValue
                    } else if blobColumns.contains(column), case .blob(let data) = value.storage,
                              case .external(let name)? = ExternalDataReference(encoded: data) {
                        value = ExternalDataReference.external(fileName: try copyExternalFile(name)).encoded.databaseValue
                    }
                    if case .blob(let data) = value.storage { report.bytesLoaded += data.count }
                    values.append(value)
                }
                try insert.execute(arguments: StatementArguments(values))
                report.objects += 1
            }
        }

        /// Copies one external data file under a new name, as Core Data writes external data anew.
        mutating func copyExternalFile(_ name: String) throws -> String {
            let source = sourceFiles.externalFile(name)
            try StoreSnapshot.requireRegularFile(source, what: "external data file \(name)")
            try FileManager.default.createDirectory(at: destinationFiles.externalDataFolder, withIntermediateDirectories: true)
            let newName = UUID().uuidString
            try FileCopy.copy(source, to: destinationFiles.externalFile(newName), allowClone: true)
            writtenFiles.append(newName)
            return newName
        }

        func copyJoinTable(_ join: StoreSchema.JoinTable) throws {
            guard let columns = schema.columns[join.name]?.map(\.name) else { return }
            if !fresh, (try Bool.fetchOne(destination, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [join.name])) != true {
                throw StoreError.incompatibleModel(store: destinationFiles.database.path, differences: ["no join table \(join.name)"])
            }
            let keys: Set = [join.ownerColumn, join.otherColumn]
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let insert = try destination.makeStatement(sql: "INSERT INTO \(join.name.quotedDatabaseIdentifier) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
            let rows = try Row.fetchCursor(source, sql: "SELECT \(list) FROM \(join.name.quotedDatabaseIdentifier)")
            while let row = try rows.next() {
                let values = try columns.map { keys.contains($0) ? try shifted(SafeColumn.value(row, $0)) : SafeColumn.value(row, $0) }
                try insert.execute(arguments: StatementArguments(values))
            }
        }

        /// Tables that are neither bookkeeping, entity, join, virtual nor shadow tables (an app's own, or
        /// Core Data's for features this harness does not model) go along verbatim into a fresh destination, and
        /// the content of virtual tables is inserted through their module, which fills its shadow tables.
        func copyOtherTables() throws {
            let known = Set(["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"] + schema.entities.map(\.table) + schema.joinTables.map(\.name))
            for (table, columns) in schema.columns.sorted(by: { $0.key < $1.key }) where !known.contains(table) {
                let list = columns.map(\.name.quotedDatabaseIdentifier).joined(separator: ", ")
                try copyVerbatim(table, list: list)
            }
            for table in schema.virtualTables {
                try copyVerbatim(table, list: "*")
            }
        }

        func copyVerbatim(_ table: String, list: String) throws {
            let rows = try Row.fetchCursor(source, sql: "SELECT \(list) FROM \(table.quotedDatabaseIdentifier)")
            var insert: Statement?
            while let row = try rows.next() {
                if insert == nil {
                    let names = row.columnNames.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                    insert = try destination.makeStatement(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(names)) VALUES (\(row.columnNames.map { _ in "?" }.joined(separator: ", ")))")
                }
                try insert?.execute(arguments: StatementArguments(row.databaseValues))
            }
        }

        /// Each entity's Z_MAX covers the keys it now has: the destination's own, or the source's shifted.
        func updateMaxKeys() throws {
            for entity in schema.entities where entity.max > 0 {
                let (shiftedMax, overflow) = entity.max.addingReportingOverflow(offset)
                guard !overflow else { throw StoreError.invalidObject("Z_MAX \(entity.max) + \(offset) overflows") }
                try destination.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = max(coalesce(Z_MAX, 0), ?) WHERE Z_NAME = ?",
                                        arguments: [shiftedMax, entity.name])
            }
        }
    }
}
