import Foundation
import GRDB

/// `migratePersistentStore` for a store this harness has no model of (one an app wrote): its entities, key
/// columns and join tables are read from its layout (`StoreSchema`). It behaves as the coordinator's migrate of
/// a store of this harness's model does, and as Core Data documents migrate: every object is loaded into memory
/// first (external data included: "Loads all objects from the old store", Core Data Programming Guide), then
/// written into the destination with new primary keys taken from the destination's `Z_MAX`, under a new store
/// UUID, with the source's metadata keys (custom ones included, with their plist types). Persistent history and
/// CloudKit mirroring rows are not carried (a "clean copy"): their tables exist in the copy, empty.
///
/// An existing destination of the same model is appended to by default (objects get keys above its `Z_MAX`,
/// so migrating twice into one backup duplicates every object); `ExistingDestination.overwrite` is the other
/// reading of the sources (docs/fidelity.md: contested). A destination of another model is refused with error
/// 134100, and a uniqueness constraint the append would break fails the whole migration with the destination
/// left as it was.
///
/// The source is opened read-only and never written: no journal-mode switch, no checkpoint.
public enum LayoutMigration {
    public struct Options: Sendable, Hashable {
        /// The destination's journal mode when it is created (an existing destination keeps its own).
        public var journalMode: StoreOptions.JournalMode = .wal
        public var vacuum = false
        public var existingDestination: MigrateOptions.ExistingDestination = .append
        /// Keep the source's primary keys in a fresh destination instead of handing out new ones. Core Data does
        /// not; drills on a user's store ask for it because their oracle can name an object of a store with no
        /// identity attribute only by its table and key (docs/fidelity.md). The rows, values and links are the
        /// same either way; only the key numbers differ.
        public var keepSourceKeys = false
        public init(journalMode: StoreOptions.JournalMode = .wal, vacuum: Bool = false,
                    existingDestination: MigrateOptions.ExistingDestination = .append, keepSourceKeys: Bool = false) {
            self.journalMode = journalMode
            self.vacuum = vacuum
            self.existingDestination = existingDestination
            self.keepSourceKeys = keepSourceKeys
        }
    }

    public static func migrate(from source: URL, to destination: URL, options: Options = Options()) throws -> MigrateReport {
        let sourceFiles = StoreFiles(source), destinationFiles = StoreFiles(destination)
        try StoreSnapshot.requireRegularFile(sourceFiles.database, what: "the source store")
        guard sourceFiles != destinationFiles else { throw StoreError.io("migrate: source and destination are the same store") }
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        var report = MigrateReport()
        // Everything is read before anything is written, as Core Data's migrate loads the store.
        let loaded: LoadedStore
        do {
            let sourceQueue = try openReadOnly(sourceFiles.database)
            defer { try? sourceQueue.close() }
            loaded = try sourceQueue.read { db in try LoadedStore(db, files: sourceFiles, report: &report) }
        } catch let error as DatabaseError {
            throw StoreError.sqlite("migrate \(source.path): \(error.message ?? "\(error)")")
        }
        if options.existingDestination == .overwrite, destinationFiles.exists {
            try PersistentStoreCoordinator.destroyFiles(destinationFiles)
        }
        let destinationQueue: DatabaseQueue
        do {
            destinationQueue = try PlainConnection.open(destinationFiles.database)
        } catch let error as DatabaseError {
            throw StoreError.unopenable(destination.path, reason: error.message ?? "\(error)")
        }
        defer { try? destinationQueue.close() }
        var writtenFiles: [String] = []
        do {
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
                    var writer = Writer(loaded: loaded, destination: destinationDB, destinationFiles: destinationFiles, fresh: fresh,
                                        keepSourceKeys: options.keepSourceKeys)
                    defer { writtenFiles = writer.writtenFiles }
                    try writer.run(&report)
                    return .commit
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

    /// A column value as loaded: plain, or the bytes of an external data file (nil: the file is missing, which
    /// reads as nil and is written as nil, as Core Data would).
    enum Loaded {
        case value(DatabaseValue)
        case external(Data?)
    }

    /// The whole source in memory: the rows of the app's entities (external data read in), join tables, the
    /// app's other tables, and the bookkeeping a fresh destination needs.
    struct LoadedStore {
        let schema: StoreSchema
        var rows: [String: (columns: [String], rows: [[Loaded]])] = [:]
        var joins: [String: (columns: [String], rows: [[DatabaseValue]])] = [:]
        var others: [(table: String, columns: [String], rows: [[DatabaseValue]])] = []
        var plist: DatabaseValue = .null
        var virtualTableSQL: [String] = []
        var modelCache: [DatabaseValue] = []

        init(_ db: Database, files: StoreFiles, report: inout MigrateReport) throws {
            schema = try StoreSchema.read(db)
            guard schema.isCoreDataStore else {
                throw StoreError.notACoreDataStore(files.database.path, reason: "Z_PRIMARYKEY or Z_METADATA is missing")
            }
            if let problem = schema.problems.first { throw StoreError.badMetadata("\(files.database.path): \(problem)") }
            for (table, entities) in schema.entityTables where schema.columns[table] != nil && !entities.contains(where: \.isFramework) {
                let columns = schema.columns[table]!.map(\.name)
                let blobs = Set(schema.columns[table]!.filter { $0.type.uppercased() == "BLOB" }.map(\.name))
                var loaded: [[Loaded]] = []
                let cursor = try Row.fetchCursor(db, sql: "SELECT \(columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")) FROM \(table.quotedDatabaseIdentifier) WHERE typeof(Z_PK) = 'integer' ORDER BY Z_PK")
                while let row = try cursor.next() {
                    loaded.append(columns.map { column in
                        let value = SafeColumn.value(row, column)
                        if blobs.contains(column), case .blob(let data) = value.storage {
                            if case .external(let name)? = ExternalDataReference(encoded: data) {
                                let bytes = ExternalDataFiles.read(name, in: files)
                                report.bytesLoaded += bytes?.count ?? 0
                                return .external(bytes)
                            }
                            report.bytesLoaded += data.count
                        } else {
                            report.bytesLoaded += 16
                        }
                        return .value(value)
                    })
                }
                report.objects += loaded.count
                rows[table] = (columns, loaded)
            }
            for join in schema.joinTables {
                guard let columns = schema.columns[join.name]?.map(\.name) else { continue }
                let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
                joins[join.name] = (columns, try Row.fetchAll(db, sql: "SELECT \(list) FROM \(join.name.quotedDatabaseIdentifier)").map { row in
                    columns.map { SafeColumn.value(row, $0) }
                })
            }
            let known = Set(["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE"] + schema.entities.map(\.table) + schema.joinTables.map(\.name))
            for (table, columns) in schema.columns.sorted(by: { $0.key < $1.key }) where !known.contains(table) && !Self.isFrameworkTable(table) {
                let names = columns.map(\.name)
                others.append((table, names, try Self.values(db, table, list: names.map(\.quotedDatabaseIdentifier).joined(separator: ", "))))
            }
            for table in schema.virtualTables {
                let row = try Row.fetchOne(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier) LIMIT 1")
                others.append((table, row?.columnNames.map { $0 } ?? [], try Self.values(db, table, list: "*")))
            }
            virtualTableSQL = try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE type = 'table' AND sql LIKE 'CREATE VIRTUAL TABLE%'")
            if let row = try Row.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") { plist = SafeColumn.value(row, "Z_PLIST") }
            if schema.columns["Z_MODELCACHE"] != nil {
                modelCache = try Row.fetchAll(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE").map { SafeColumn.value($0, "Z_CONTENT") }
            }
        }

        static func values(_ db: Database, _ table: String, list: String) throws -> [[DatabaseValue]] {
            try Row.fetchAll(db, sql: "SELECT \(list) FROM \(table.quotedDatabaseIdentifier)").map { Array($0.databaseValues) }
        }

        /// Tables of Core Data's own features that are not entities of the app: CloudKit mirroring (`ANSCK*`)
        /// when its entities are missing from `Z_PRIMARYKEY`. Their rows are not carried.
        static func isFrameworkTable(_ table: String) -> Bool { table.uppercased().hasPrefix("ANSCK") }
    }

    /// Writes a loaded store into the destination: its schema when fresh, then the objects under new keys.
    struct Writer {
        let loaded: LoadedStore
        let destination: Database
        let destinationFiles: StoreFiles
        let fresh: Bool
        let keepSourceKeys: Bool
        var writtenFiles: [String] = []
        /// Source Z_ENT -> destination Z_ENT, by entity name.
        var entityNumbers: [Int64: Int64] = [:]
        /// Table -> source Z_PK -> destination Z_PK.
        var keys: [String: [Int64: Int64]] = [:]

        var schema: StoreSchema { loaded.schema }

        init(loaded: LoadedStore, destination: Database, destinationFiles: StoreFiles, fresh: Bool, keepSourceKeys: Bool) {
            self.loaded = loaded
            self.destination = destination
            self.destinationFiles = destinationFiles
            self.fresh = fresh
            self.keepSourceKeys = keepSourceKeys
        }

        mutating func run(_ report: inout MigrateReport) throws {
            if fresh {
                try createSchema()
                for entity in schema.entities { entityNumbers[entity.number] = entity.number }
            } else {
                try prepareAppend(&report)
            }
            try assignKeys()
            for (table, content) in loaded.rows.sorted(by: { $0.key < $1.key }) { try write(table, content.columns, content.rows) }
            for join in schema.joinTables { try writeJoin(join) }
            if fresh {
                for other in loaded.others where !other.rows.isEmpty {
                    let insert = try destination.makeStatement(sql: "INSERT INTO \(other.table.quotedDatabaseIdentifier) (\(other.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(other.columns.map { _ in "?" }.joined(separator: ", ")))")
                    for row in other.rows { try insert.execute(arguments: StatementArguments(row)) }
                }
            }
            try updateMaxKeys()
        }

        /// Creates the source's tables and indexes (virtual tables too, which make their own shadow tables), the
        /// entity numbers, metadata under a new store UUID (the source's plist, keys and types as they were),
        /// and the model cache.
        func createSchema() throws {
            let shadows = Set(schema.shadowTables)
            for statement in schema.statements where statement.type == "table" && !shadows.contains(statement.table) {
                try destination.execute(sql: statement.sql)
            }
            for statement in schema.statements where statement.type == "index" && !shadows.contains(statement.table) {
                try destination.execute(sql: statement.sql)
            }
            for sql in loaded.virtualTableSQL { try destination.execute(sql: sql) }
            for entity in schema.entities {
                try destination.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                                        arguments: [entity.number, entity.name, entity.superNumber])
            }
            try destination.execute(sql: "INSERT INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                                    arguments: [UUID().uuidString, loaded.plist])
            if schema.columns["Z_MODELCACHE"] != nil {
                try destination.execute(sql: "DELETE FROM Z_MODELCACHE")
                for content in loaded.modelCache {
                    try destination.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [content])
                }
            }
        }
        /// An existing destination: the same model (version hashes) or error 134100; keys go above its highest.
        mutating func prepareAppend(_ report: inout MigrateReport) throws {
            let target = try StoreSchema.read(destination)
            guard target.isCoreDataStore else {
                throw StoreError.notACoreDataStore(destinationFiles.database.path, reason: "it exists and is not empty, but has no Z_PRIMARYKEY or Z_METADATA")
            }
            let mine = try Self.versionHashes(loaded.plist), theirs = try Self.versionHashes(destination)
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
            for (table, entities) in target.entityTables where target.columns[table] != nil && !entities.contains(where: \.isFramework) {
                let count = try Int.fetchOne(destination, sql: "SELECT count(*) FROM \(table.quotedDatabaseIdentifier)") ?? 0
                report.objectsAlreadyInDestination += count
            }
        }

        static func versionHashes(_ db: Database) throws -> [String: Data] {
            guard let row = try Row.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1") else { return [:] }
            return try versionHashes(SafeColumn.value(row, "Z_PLIST"))
        }

        static func versionHashes(_ plist: DatabaseValue) throws -> [String: Data] {
            guard case .blob(let data) = plist.storage else { return [:] }
            return try StoreMetadata(plistData: data, uuid: "-").versionHashes
        }

        /// New primary keys: per table (a hierarchy shares its root's), in source key order, above the highest
        /// key the destination has handed out (its root's `Z_MAX`, or its highest `Z_PK`), as Core Data assigns
        /// permanent IDs to the migrated objects from the destination's counters.
        mutating func assignKeys() throws {
            for (table, content) in loaded.rows {
                let group = schema.entityTables.first { $0.table == table }?.entities ?? []
                let names = group.map(\.name)
                var base: Int64 = 0
                if !fresh {
                    let marks = names.map { _ in "?" }.joined(separator: ", ")
                    base = try Int64.fetchOne(destination, sql: "SELECT max(coalesce(Z_MAX, 0)) FROM Z_PRIMARYKEY WHERE Z_NAME IN (\(marks))",
                                              arguments: StatementArguments(names)) ?? 0
                    let highest = try Int64.fetchOne(destination, sql: "SELECT max(Z_PK) FROM \(table.quotedDatabaseIdentifier) WHERE typeof(Z_PK) = 'integer'") ?? 0
                    base = Swift.max(base, highest)
                }
                guard let index = content.columns.firstIndex(of: "Z_PK") else { continue }
                var map: [Int64: Int64] = [:]
                for (offset, row) in content.rows.enumerated() {
                    guard case .value(let value) = row[index], case .int64(let key) = value.storage else { continue }
                    if fresh, keepSourceKeys {
                        map[key] = key
                        continue
                    }
                    let (new, overflow) = base.addingReportingOverflow(Int64(offset) + 1)
                    guard !overflow else { throw StoreError.invalidObject("\(table): no primary key left above \(base)") }
                    map[key] = new
                }
                keys[table] = map
            }
        }

        /// The destination key for a source key of `table` (nil when the target row is not there: a dangling
        /// reference, which reads as nil and is written as nil).
        func mapped(_ value: DatabaseValue, table: String?) -> DatabaseValue {
            guard case .int64(let key) = value.storage else { return value }
            guard let table, let map = keys[table] else { return value }
            return map[key].map(\.databaseValue) ?? .null
        }

        mutating func write(_ table: String, _ columns: [String], _ rows: [[Loaded]]) throws {
            let targets = Dictionary((schema.toOnes[table] ?? []).map { ($0.column, $0.destinationTable) }, uniquingKeysWith: { first, _ in first })
            let entityColumns = Set(columns.filter { $0 == "Z_ENT" || StoreSchema.isEntityTypeColumn($0) })
            let list = columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let insert = try destination.makeStatement(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(list)) VALUES (\(columns.map { _ in "?" }.joined(separator: ", ")))")
            for row in rows {
                var values: [DatabaseValue] = []
                for (column, item) in zip(columns, row) {
                    switch item {
                    case .external(let bytes):
                        if let bytes {
                            let reference = try ExternalDataFiles.store(bytes, in: destinationFiles, sync: false)
                            if case .external(let name)? = ExternalDataReference(encoded: reference) { writtenFiles.append(name) }
                            values.append(reference.databaseValue)
                        } else {
                            values.append(.null)
                        }
                    case .value(let value):
                        if column == "Z_PK" {
                            values.append(mapped(value, table: table))
                        } else if let target = targets[column] {
                            values.append(mapped(value, table: target))
                        } else if entityColumns.contains(column), case .int64(let number) = value.storage, let other = entityNumbers[number] {
                            values.append(other.databaseValue)
                        } else {
                            values.append(value)
                        }
                    }
                }
                try insert.execute(arguments: StatementArguments(values))
            }
        }

        func writeJoin(_ join: StoreSchema.JoinTable) throws {
            guard let content = loaded.joins[join.name] else { return }
            if !fresh, (try Bool.fetchOne(destination, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", arguments: [join.name])) != true {
                throw StoreError.incompatibleModel(store: destinationFiles.database.path, differences: ["no join table \(join.name)"])
            }
            let owner = schema.entity(named: join.ownerEntity)?.table, other = schema.entity(named: join.otherEntity)?.table
            let list = content.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")
            let insert = try destination.makeStatement(sql: "INSERT OR IGNORE INTO \(join.name.quotedDatabaseIdentifier) (\(list)) VALUES (\(content.columns.map { _ in "?" }.joined(separator: ", ")))")
            for row in content.rows {
                let values = zip(content.columns, row).map { column, value in
                    column == join.ownerColumn ? mapped(value, table: owner) : column == join.otherColumn ? mapped(value, table: other) : value
                }
                if values.contains(where: \.isNull) { continue }
                try insert.execute(arguments: StatementArguments(values))
            }
        }

        /// Each entity's Z_MAX covers the keys its table now has.
        func updateMaxKeys() throws {
            for (table, map) in keys {
                guard let highest = map.values.max() else { continue }
                for entity in schema.entityTables.first(where: { $0.table == table })?.entities ?? [] {
                    try destination.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = max(coalesce(Z_MAX, 0), ?) WHERE Z_NAME = ?",
                                            arguments: [highest, entity.name])
                }
            }
        }
    }
}
