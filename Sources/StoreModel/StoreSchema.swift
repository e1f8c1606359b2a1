import Foundation
import GRDB

/// A store's layout as Core Data wrote it, read from `sqlite_master` and `Z_PRIMARYKEY` alone: no model needed.
///
/// This is what lets Lifeboat work on a store an app wrote on a Mac or an iPhone, not only on its own:
/// - entities come from `Z_PRIMARYKEY`; an entity with a `Z_SUPER` lives in its root entity's table, its rows told
///   apart by `Z_ENT`, and `Z_MAX` is kept on the root;
/// - the persistent-history entities (`Z_ENT` 16001 and up: CHANGE, TRANSACTION, TRANSACTIONSTRING) live in
///   tables prefixed `A`, not `Z`, with `Z_OPT` NULL and no version hash;
/// - many-to-many join tables are named `Z_<n><REL>` with two `Z_<m><NAME>` key columns;
/// - to-one key columns are the INTEGER columns Core Data indexes as `<TABLE>_<COLUMN>_INDEX`; a `Z<n>_<REL>`
///   column beside one names the entity its targets belong to;
/// - virtual tables (R*Tree and the like) and their shadow tables belong to SQLite modules, not to the object
///   graph: they are listed so every operation can leave them alone.
///
/// Everything read from the store is checked for type: a damaged or hand-edited store yields `problems`, never a
/// crash.
public struct StoreSchema: Sendable {
    public struct Entity: Sendable, Hashable {
        public var number: Int64
        public var name: String
        public var superNumber: Int64
        public var max: Int64
        /// The table holding its rows (its root entity's table); may be missing from a damaged store.
        public var table: String
        /// Which of Core Data's own entities this is (nil: one of the app's model), from `frameworkKind`.
        public var framework: FrameworkEntity?
        /// One of the persistent-history entities (CHANGE, TRANSACTION, TRANSACTIONSTRING: table prefix `A`,
        /// `Z_OPT` NULL, no version hash).
        public var isHistory: Bool { framework == .history }
        /// One of Core Data's own entities (history, CloudKit mirroring, or another numbered 16000+): rows the
        /// framework writes, never the app's objects.
        public var isFramework: Bool { framework != nil }
    }

    /// Kinds of entities Core Data adds to a store beside the app's model.
    public enum FrameworkEntity: String, Sendable, Hashable {
        /// Persistent history: CHANGE, TRANSACTION, TRANSACTIONSTRING.
        case history
        /// NSPersistentCloudKitContainer's mirroring entities (NSCKRecordMetadata, ...: tables `ANSCK*`).
        case cloudKit
        /// Numbered in the framework's range but not a name this model knows.
        case other
    }

    /// Names of the persistent-history entities in `Z_PRIMARYKEY`.
    public static let historyEntityNames: Set<String> = ["CHANGE", "TRANSACTION", "TRANSACTIONSTRING"]

    /// Classifies an entity by its `Z_PRIMARYKEY` name, not its number: Core Data numbers all of its own
    /// entities from 16000 (history and CloudKit mirroring alike), so a number tells only that it is the
    /// framework's. Extend here for new framework entities.
    public static func frameworkKind(name: String, number: Int64) -> FrameworkEntity? {
        guard historyEntityNumbers.contains(number) else { return nil }
        if historyEntityNames.contains(name) { return .history }
        if name.hasPrefix("NSCK") { return .cloudKit }
        return .other
    }

    public struct JoinTable: Sendable, Hashable {
        public var name: String
        /// "<owner entity>.<RELATIONSHIP>": the same key in two stores even when their entity numbers differ.
        public var key: String
        public var ownerColumn: String
        public var ownerEntity: String
        public var otherColumn: String
        public var otherEntity: String
    }

    public struct ToOne: Sendable, Hashable {
        public var column: String
        /// The table its keys point into, when the layout tells (nil: unknown target).
        public var destinationTable: String?
    }

    /// Numbers from which Core Data numbers its own entities (persistent history, CloudKit mirroring).
    public static let historyEntityNumbers: ClosedRange<Int64> = 16000...16999

    public var entities: [Entity] = []
    /// Ordinary tables and their columns (name, declared type); virtual tables and their shadows are not here.
    public var columns: [String: [(name: String, type: String)]] = [:]
    public var virtualTables: [String] = []
    public var shadowTables: [String] = []
    public var joinTables: [JoinTable] = []
    /// Table -> its to-one key columns.
    public var toOnes: [String: [ToOne]] = [:]
    /// Table -> CREATE statement, for the tables and indexes that belong to the object graph.
    public var statements: [(name: String, type: String, table: String, sql: String)] = []
    /// What is wrong with the bookkeeping, in words (a damaged store still gets a schema).
    public var problems: [String] = []

    public init() {}

    /// Reads the schema. Throws only when SQLite cannot read `sqlite_master` at all.
    public static func read(_ db: Database, model: ManagedObjectModel? = nil) throws -> StoreSchema {
        var schema = StoreSchema()
        let master = try Row.fetchAll(db, sql: "SELECT type, name, tbl_name, sql FROM sqlite_master")
        var tables: [(name: String, sql: String)] = []
        for row in master {
            guard let type = SafeColumn.text(row, "type"), let name = SafeColumn.text(row, "name") else { continue }
            let sql = SafeColumn.text(row, "sql") ?? ""
            if type == "table" {
                if sql.uppercased().hasPrefix("CREATE VIRTUAL TABLE") { schema.virtualTables.append(name) } else { tables.append((name, sql)) }
            }
        }
        // A virtual table's module keeps its data in tables named after it (`<vtab>_node`, `_rowid`, `_parent` for
        // an R*Tree; `_content`, `_segments`, ... for FTS): they go with the virtual table, never on their own.
        for table in tables where schema.virtualTables.contains(where: { table.name.hasPrefix($0 + "_") }) {
            schema.shadowTables.append(table.name)
        }
        for table in tables where !schema.shadowTables.contains(table.name) && !table.name.hasPrefix("sqlite_") {
            let info = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.name.quotedDatabaseIdentifier))")
            schema.columns[table.name] = info.compactMap { row in
                SafeColumn.text(row, "name").map { ($0, SafeColumn.text(row, "type") ?? "") }
            }
        }
        for row in master {
            guard let type = SafeColumn.text(row, "type"), let name = SafeColumn.text(row, "name"),
                  let table = SafeColumn.text(row, "tbl_name"), let sql = SafeColumn.text(row, "sql"),
                  type == "table" || type == "index", schema.columns[table] != nil else { continue }
            schema.statements.append((name, type, table, sql))
        }
        guard schema.columns["Z_PRIMARYKEY"] != nil else { return schema }
        try schema.readEntities(db)
        schema.joinTables = schema.findJoinTables()
        try schema.findToOnes(db, model: model)
        return schema
    }

    public var isCoreDataStore: Bool { columns["Z_PRIMARYKEY"] != nil && columns["Z_METADATA"] != nil }

    private mutating func readEntities(_ db: Database) throws {
        var byNumber: [Int64: Entity] = [:]
        var names = Set<String>()
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY ORDER BY Z_ENT") {
            guard let number = SafeColumn.integer(row, "Z_ENT") else {
                problems.append("Z_PRIMARYKEY has a row whose Z_ENT is \(SafeColumn.kind(row, "Z_ENT")), not an integer")
                continue
            }
            guard let name = SafeColumn.text(row, "Z_NAME"), !name.isEmpty else {
                problems.append("Z_PRIMARYKEY row \(number): Z_NAME is \(SafeColumn.kind(row, "Z_NAME")), not a name")
                continue
            }
            var superNumber: Int64 = 0
            if SafeColumn.isNull(row, "Z_SUPER") {
                superNumber = 0
            } else if let value = SafeColumn.integer(row, "Z_SUPER") {
                superNumber = value
            } else {
                problems.append("Z_PRIMARYKEY row \(number) (\(name)): Z_SUPER is \(SafeColumn.kind(row, "Z_SUPER")), not an integer")
            }
            var max: Int64 = 0
            if let value = SafeColumn.integer(row, "Z_MAX") {
                max = value
            } else if !SafeColumn.isNull(row, "Z_MAX") {
                problems.append("Z_PRIMARYKEY row \(number) (\(name)): Z_MAX is \(SafeColumn.kind(row, "Z_MAX")), not an integer")
            }
            if !names.insert(name).inserted {
                problems.append("Z_PRIMARYKEY lists entity \(name) more than once")
                continue
            }
            byNumber[number] = Entity(number: number, name: name, superNumber: superNumber, max: max, table: "",
                                      framework: Self.frameworkKind(name: name, number: number))
        }
        for (number, var entity) in byNumber {
            var root = entity
            var seen: Set<Int64> = [number]
            while root.superNumber != 0, let parent = byNumber[root.superNumber], seen.insert(parent.number).inserted {
                root = parent
            }
            if entity.superNumber != 0, byNumber[entity.superNumber] == nil {
                problems.append("entity \(entity.name) names a Z_SUPER \(entity.superNumber) that Z_PRIMARYKEY does not list")
            }
            let plain = "Z" + root.name.uppercased(), history = "A" + root.name.uppercased()
            entity.table = entity.isFramework && columns[history] != nil ? history : (columns[plain] == nil && columns[history] != nil ? history : plain)
            byNumber[number] = entity
        }
        entities = byNumber.values.sorted { $0.number < $1.number }
    }

    private func findJoinTables() -> [JoinTable] {
        let names = Dictionary(entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
        let entityTables = Set(entities.map(\.table))
        var result: [JoinTable] = []
        for (table, tableColumns) in columns.sorted(by: { $0.key < $1.key }) where !entityTables.contains(table) {
            guard let (number, relationship) = Self.numbered(table), let owner = names[number] else { continue }
            let keyColumns = tableColumns.map(\.name).filter { Self.numbered($0) != nil }
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
    public static func numbered(_ name: String) -> (Int64, String)? {
        guard name.hasPrefix("Z_") else { return nil }
        let rest = name.dropFirst(2)
        let digits = rest.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, digits.count < 19, let number = Int64(digits), digits.count < rest.count else { return nil }
        return (number, String(rest.dropFirst(digits.count)))
    }

    private mutating func findToOnes(_ db: Database, model: ManagedObjectModel?) throws {
        let bookkeeping: Set = ["Z_PK", "Z_ENT", "Z_OPT"]
        for table in Set(entities.map(\.table)).sorted() {
            guard let tableColumns = columns[table] else { continue }
            let integerColumns = Set(tableColumns.filter { $0.type.uppercased().hasPrefix("INT") }.map(\.name))
            var found: [String: ToOne] = [:]
            if let model {
                for entity in model.entities where StoreLayout.tableName(entity.name) == table {
                    for relationship in entity.relationships where !relationship.isToMany {
                        let column = StoreLayout.columnName(relationship.name)
                        if integerColumns.contains(column) {
                            found[column] = ToOne(column: column, destinationTable: StoreLayout.tableName(relationship.destination))
                        }
                    }
                }
            }
            let prefix = table + "_", suffix = "_INDEX"
            for statement in statements where statement.type == "index" && statement.table == table {
                guard statement.name.hasPrefix(prefix), statement.name.hasSuffix(suffix),
                      statement.name.count > prefix.count + suffix.count else { continue }
                let column = String(statement.name.dropFirst(prefix.count).dropLast(suffix.count))
                guard integerColumns.contains(column), !bookkeeping.contains(column), found[column] == nil else { continue }
                found[column] = ToOne(column: column, destinationTable: destination(of: column, in: table))
            }
            toOnes[table] = found.values.sorted { $0.column < $1.column }
        }
    }

    /// Which table a to-one key column points into: the entity its `Z<n>_<REL>` companion names, else the one
    /// entity whose name is (or ends with) the relationship's name.
    private func destination(of column: String, in table: String) -> String? {
        guard column.hasPrefix("Z") else { return nil }
        let relationship = String(column.dropFirst())
        for name in columns[table]?.map(\.name) ?? [] where name.hasSuffix("_" + relationship) {
            let digits = name.dropFirst().dropLast(relationship.count + 1)
            guard name.hasPrefix("Z"), !digits.isEmpty, digits.count < 19, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int64(digits), let entity = entities.first(where: { $0.number == number }) else { continue }
            return entity.table
        }
        let bare = String(relationship.reversed().drop { $0.isASCII && $0.isNumber }.reversed())
        let candidates = entities.filter { !$0.isFramework }
        if let exact = candidates.first(where: { $0.name.uppercased() == bare }) { return exact.table }
        let tails = candidates.filter { $0.name.uppercased().hasSuffix(bare) }
        return Set(tails.map(\.table)).count == 1 ? tails.first?.table : nil
    }

    /// `Z<n>_<REL>`: the entity number of a to-one relationship's target, beside its key column.
    public static func isEntityTypeColumn(_ name: String) -> Bool {
        guard name.hasPrefix("Z"), let underscore = name.firstIndex(of: "_") else { return false }
        let digits = name[name.index(after: name.startIndex)..<underscore]
        return !digits.isEmpty && digits.allSatisfy { $0.isASCII && $0.isNumber }
    }

    /// Entity tables (one per root entity), with the entities stored in each.
    public var entityTables: [(table: String, entities: [Entity])] {
        Dictionary(grouping: entities, by: \.table).map { ($0.key, $0.value) }.sorted { $0.table < $1.table }
    }

    public func entity(named name: String) -> Entity? { entities.first { $0.name == name } }
    public func entity(number: Int64) -> Entity? { entities.first { $0.number == number } }
}

/// Reads columns of rows that came from a store without trusting their types: GRDB's typed subscripts stop the
/// process on a value of the wrong type, and a damaged store may hold anything anywhere.
public enum SafeColumn {
    public static func value(_ row: Row, _ column: String) -> DatabaseValue {
        (row[column] as DatabaseValue?) ?? .null
    }

    public static func integer(_ row: Row, _ column: String) -> Int64? {
        if case .int64(let value) = value(row, column).storage { return value }
        return nil
    }

    public static func text(_ row: Row, _ column: String) -> String? {
        if case .string(let value) = value(row, column).storage { return value }
        return nil
    }

    public static func blob(_ row: Row, _ column: String) -> Data? {
        if case .blob(let value) = value(row, column).storage { return value }
        return nil
    }

    public static func isNull(_ row: Row, _ column: String) -> Bool { value(row, column).isNull }

    /// The SQLite storage class of a value, for messages.
    public static func kind(_ row: Row, _ column: String) -> String {
        switch value(row, column).storage {
        case .null: "NULL"
        case .int64: "an integer"
        case .double: "a real"
        case .string: "text"
        case .blob: "a blob"
        }
    }
}
