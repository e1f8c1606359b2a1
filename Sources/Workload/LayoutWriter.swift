import Foundation
import GRDB
import SeededRandomness
import StoreModel

/// A writer process for a drill on a user's own store: its work is derived from the store's layout, not from a
/// model of ours. Each transaction inserts a row into one of the store's entities (with Core Data's bookkeeping:
/// `Z_PK` above the root entity's `Z_MAX`, which goes up with it, the entity's `Z_ENT`, `Z_OPT` 1), updates or
/// deletes a row it inserted (bumping `Z_OPT`; a delete takes the row's join-table links along), or links a row
/// it inserted to rows of the original store (to-one key columns with their `Z<n>_<REL>` companions, and
/// many-to-many join-table rows). Where the store records persistent history, the save records it too.
///
/// Writers only change rows they inserted and only point at rows of the original store, which no writer
/// changes, so each writer's history alone determines its objects' states: the oracle's premise. Every history
/// record names an object by table and key (`LayoutObjects.identity`) and carries the hash of its state read
/// back inside the transaction, before the commit, through the same function the checkers use.
struct LayoutWriter {
    let configuration: Writer.Configuration

    struct Own {
        var table: String
        var key: Int64
        var entity: StoreSchema.Entity
    }

    func run() throws -> Int {
        let c = configuration
        let files = StoreFiles(URL(fileURLWithPath: c.store))
        var settings = Configuration()
        settings.busyMode = .timeout(30)
        settings.foreignKeysEnabled = false
        let synchronous = (StoreOptions.Synchronous(rawValue: c.synchronous) ?? .full).rawValue.uppercased()
        let checkpoint = c.checkpoint
        settings.prepareDatabase { db in
            // The store's own journal mode is kept: a user's rollback-journal store stays one.
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
            switch checkpoint {
            case "none": try db.execute(sql: "PRAGMA wal_autocheckpoint = 0")
            case "frequent": try db.execute(sql: "PRAGMA wal_autocheckpoint = 16")
            default: break
            }
        }
        let queue = try DatabaseQueue(path: files.database.path, configuration: settings)
        defer { try? queue.close() }
        let (schema, snapshot) = try queue.read { db -> (StoreSchema, [String: [(key: Int64, entity: Int64)]]) in
            let schema = try StoreSchema.read(db)
            var originals: [String: [(Int64, Int64)]] = [:]
            for (table, entities) in schema.entityTables where schema.columns[table] != nil && !entities.contains(where: \.isFramework) {
                let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT FROM \(table.quotedDatabaseIdentifier) ORDER BY Z_PK LIMIT 10000")
                originals[table] = rows.compactMap { row in
                    guard let key = SafeColumn.integer(row, "Z_PK"), let entity = SafeColumn.integer(row, "Z_ENT") else { return nil }
                    return (key, entity)
                }
            }
            return (schema, originals)
        }
        // Binary columns that already hold Core Data's external-storage markers allow external storage.
        let externalColumns = try queue.read { db in try ExternalStorageColumns.marked(db, schema: schema) }
        let blobs = BlobPolicy(columns: externalColumns, fraction: c.blobFraction, size: c.blobSize, files: files,
                               sync: c.syncExternalData)
        // Rows other writers inserted before this one started are no originals: their intents are in the
        // history files already (an intent is written before its commit), so they are left out here.
        let inserted = Set(HistoryReader.transactions(in: URL(fileURLWithPath: c.history).deletingLastPathComponent())
            .flatMap(\.ops).filter { $0.op == "insert" }.map(\.id))
        let originals = snapshot.reduce(into: [String: [(key: Int64, entity: Int64)]]()) { result, item in
            result[item.key] = item.value.filter { !inserted.contains(LayoutObjects.identity(table: item.key, key: $0.key)) }
        }
        let insertable = schema.entities.filter { !$0.isFramework && schema.columns[$0.table] != nil }
        guard !insertable.isEmpty else { throw StoreError.invalidObject("\(files.database.path) has no entity table a writer can insert into") }
        let history = try HistoryWriter(URL(fileURLWithPath: c.history))
        var random = SeededRandom(seed: c.seed)
        var mine: [Own] = []
        var committed = 0
        let pacer = TransactionPacer(turnsFIFO: c.turns, rate: c.rate)
        for seq in 1...max(1, c.transactions) where c.transactions > 0 {
            guard pacer.awaitTurn(seq) else { break }
            let op = mine.isEmpty ? "insert" : pick(&random)
            let target = mine.isEmpty ? 0 : Int(random.next() % UInt64(mine.count))
            let entity = insertable[Int(random.next() % UInt64(insertable.count))]
            var after: Own?
            do {
                try queue.inDatabase { db in
                    try db.inTransaction(.immediate) {
                        var change: PersistentHistory.Change
                        switch op {
                        case "insert":
                            let own = try insert(db, schema: schema, entity: entity, originals: originals, blobs: blobs, random: &random, seq: seq)
                            after = own
                            change = PersistentHistory.Change(kind: .insert, entity: entity.number, key: own.key)
                        case "delete":
                            let own = mine[target]
                            for join in schema.joinTables where schema.entity(named: join.ownerEntity)?.table == own.table {
                                try db.execute(sql: "DELETE FROM \(join.name.quotedDatabaseIdentifier) WHERE \(join.ownerColumn.quotedDatabaseIdentifier) = ?", arguments: [own.key])
                            }
                            try db.execute(sql: "DELETE FROM \(own.table.quotedDatabaseIdentifier) WHERE Z_PK = ?", arguments: [own.key])
                            change = PersistentHistory.Change(kind: .delete, entity: own.entity.number, key: own.key)
                        case "update":
                            let own = mine[target]
                            try update(db, schema: schema, own: own, blobs: blobs, random: &random, seq: seq)
                            change = PersistentHistory.Change(kind: .update, entity: own.entity.number, key: own.key)
                        default:
                            let own = mine[target]
                            try link(db, schema: schema, own: own, originals: originals, random: &random)
                            change = PersistentHistory.Change(kind: .update, entity: own.entity.number, key: own.key)
                        }
                        if try PersistentHistory.isEnabled(db) {
                            try PersistentHistory.record(db, [change], author: "lifeboat-writer-\(c.index)")
                        }
                        let own = after ?? mine[target]
                        let object = try LayoutObjects.object(db, schema: schema, files: files, table: own.table, key: own.key)
                        let ops = [HistoryOp(op: op, entity: own.entity.name, id: LayoutObjects.identity(table: own.table, key: own.key),
                                             hash: op == "delete" ? nil : object?.hash)]
                        // The intent goes out before the commit: a writer killed now leaves a transaction in flight.
                        try history.append(HistoryRecord(writer: c.index, seq: seq, state: .intent, t: now(), ops: ops))
                        return .commit
                    }
                }
                try history.append(HistoryRecord(writer: c.index, seq: seq, state: .ack, t: now()))
                committed += 1
                if op == "delete" { mine.remove(at: target) } else if let after { mine.append(after) }
                if c.checkpoint == "truncate" { _ = try? queue.inDatabase { try $0.execute(sql: "PRAGMA wal_checkpoint(TRUNCATE)") } }
            } catch {
                Writer.abortOnInterimFailure(error)
                try history.append(HistoryRecord(writer: c.index, seq: seq, state: .failed, t: now(), error: "\(error)"))
            }
        }
        try history.append(HistoryRecord(writer: c.index, seq: c.transactions + 1, state: .done, t: now()))
        return committed
    }

    func now() -> Double { Date().timeIntervalSince1970 - configuration.epoch }

    func pick(_ random: inout SeededRandom) -> String {
        let weights = configuration.mix.count == 4 ? configuration.mix : [50, 30, 10, 10]
        var roll = Int(random.next() % UInt64(max(1, weights.reduce(0, +))))
        for (name, weight) in zip(["insert", "update", "delete", "link"], weights) {
            if roll < weight { return name }
            roll -= weight
        }
        return "insert"
    }

    /// The columns a writer fills with values: everything but bookkeeping, key columns and their companions.
    static func valueColumns(_ schema: StoreSchema, _ table: String) -> [(name: String, type: String)] {
        let keys = Set((schema.toOnes[table] ?? []).map(\.column))
        return (schema.columns[table] ?? []).filter { column in
            !["Z_PK", "Z_ENT", "Z_OPT"].contains(column.name) && !keys.contains(column.name) && !StoreSchema.isEntityTypeColumn(column.name)
        }
    }

    /// A value for a column of this declared type, as Core Data stores each attribute type.
    static func value(type: String, random: inout SeededRandom, label: String) -> DatabaseValue {
        let upper = type.uppercased()
        if upper.hasPrefix("INT") { return Int64(random.next() % 1_000_000).databaseValue }
        if upper.hasPrefix("FLOAT") || upper.hasPrefix("REAL") || upper.hasPrefix("DOUBLE") || upper.hasPrefix("TIMESTAMP") || upper.hasPrefix("DECIMAL") {
            return (Double(random.next() % 100_000_000) / 100).databaseValue
        }
        if upper.hasPrefix("BLOB") { return Data(random.bytes(16 + Int(random.next() % 48))).databaseValue }
        return "\(label)-\(random.next() % 1_000_000_000)".databaseValue
    }

    func insert(_ db: Database, schema: StoreSchema, entity: StoreSchema.Entity, originals: [String: [(key: Int64, entity: Int64)]],
                blobs: BlobPolicy, random: inout SeededRandom, seq: Int) throws -> Own {
        let table = entity.table
        let group = schema.entityTables.first { $0.table == table }?.entities ?? [entity]
        let root = group.first { $0.superNumber == 0 } ?? entity
        let maxKey = try Int64.fetchOne(db, sql: "SELECT max(coalesce(Z_MAX, 0)) FROM Z_PRIMARYKEY WHERE Z_ENT IN (\(group.map { String($0.number) }.joined(separator: ",")))") ?? 0
        let highest = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM \(table.quotedDatabaseIdentifier) WHERE typeof(Z_PK) = 'integer'") ?? 0
        let (key, overflow) = max(maxKey, highest).addingReportingOverflow(1)
        guard !overflow else { throw StoreError.invalidObject("\(table): no primary key left above \(max(maxKey, highest))") }
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = ? WHERE Z_ENT = ?", arguments: [key, root.number])
        var names = ["Z_PK", "Z_ENT", "Z_OPT"]
        var values: [DatabaseValue] = [key.databaseValue, entity.number.databaseValue, 1.databaseValue]
        for column in Self.valueColumns(schema, table) where random.next() % 4 != 0 {
            names.append(column.name)
            values.append(try blobs.value(table: table, column: column, random: &random)
                ?? Self.value(type: column.type, random: &random, label: "w\(configuration.index)-\(seq)"))
        }
        try db.execute(sql: "INSERT INTO \(table.quotedDatabaseIdentifier) (\(names.map(\.quotedDatabaseIdentifier).joined(separator: ", "))) VALUES (\(names.map { _ in "?" }.joined(separator: ", ")))",
                       arguments: StatementArguments(values))
        let own = Own(table: table, key: key, entity: entity)
        try link(db, schema: schema, own: own, originals: originals, random: &random)
        return own
    }

    func update(_ db: Database, schema: StoreSchema, own: Own, blobs: BlobPolicy, random: inout SeededRandom, seq: Int) throws {
        let columns = Self.valueColumns(schema, own.table)
        var assignments = ["Z_OPT = coalesce(Z_OPT, 0) + 1"]
        var values: [DatabaseValue] = []
        for _ in 0..<min(columns.count, 1 + Int(random.next() % 3)) {
            let column = columns[Int(random.next() % UInt64(columns.count))]
            assignments.append("\(column.name.quotedDatabaseIdentifier) = ?")
            values.append(try blobs.value(table: own.table, column: column, random: &random)
                ?? Self.value(type: column.type, random: &random, label: "w\(configuration.index)-\(seq)u"))
        }
        values.append(own.key.databaseValue)
        try db.execute(sql: "UPDATE \(own.table.quotedDatabaseIdentifier) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?",
                       arguments: StatementArguments(values))
    }

    /// Points the row's to-one keys at rows of the original store and gives it fresh join-table links to them.
    func link(_ db: Database, schema: StoreSchema, own: Own, originals: [String: [(key: Int64, entity: Int64)]],
              random: inout SeededRandom) throws {
        var assignments: [String] = []
        var values: [DatabaseValue] = []
        let columns = Set((schema.columns[own.table] ?? []).map(\.name))
        for toOne in schema.toOnes[own.table] ?? [] {
            guard let destination = toOne.destinationTable, let candidates = originals[destination], !candidates.isEmpty else { continue }
            let relationship = String(toOne.column.dropFirst())
            let companion = columns.first { StoreSchema.isEntityTypeColumn($0) && $0.hasSuffix("_" + relationship) }
            if random.next() % 3 == 0 {
                assignments.append("\(toOne.column.quotedDatabaseIdentifier) = NULL")
                if let companion { assignments.append("\(companion.quotedDatabaseIdentifier) = NULL") }
                continue
            }
            let target = candidates[Int(random.next() % UInt64(candidates.count))]
            assignments.append("\(toOne.column.quotedDatabaseIdentifier) = ?")
            values.append(target.key.databaseValue)
            if let companion {
                assignments.append("\(companion.quotedDatabaseIdentifier) = ?")
                values.append(target.entity.databaseValue)
            }
        }
        if !assignments.isEmpty {
            values.append(own.key.databaseValue)
            try db.execute(sql: "UPDATE \(own.table.quotedDatabaseIdentifier) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?",
                           arguments: StatementArguments(values))
        }
        for join in schema.joinTables where join.ownerEntity == own.entity.name {
            guard let otherTable = schema.entity(named: join.otherEntity)?.table, let otherNumber = schema.entity(named: join.otherEntity)?.number,
                  let candidates = originals[otherTable]?.filter({ $0.entity == otherNumber }), !candidates.isEmpty else { continue }
            try db.execute(sql: "DELETE FROM \(join.name.quotedDatabaseIdentifier) WHERE \(join.ownerColumn.quotedDatabaseIdentifier) = ?", arguments: [own.key])
            for _ in 0..<Int(random.next() % 3) {
                let target = candidates[Int(random.next() % UInt64(candidates.count))]
                try db.execute(sql: "INSERT OR IGNORE INTO \(join.name.quotedDatabaseIdentifier) (\(join.ownerColumn.quotedDatabaseIdentifier), \(join.otherColumn.quotedDatabaseIdentifier)) VALUES (?, ?)",
                               arguments: [own.key, target.key])
            }
        }
    }
}

/// Values of the binary columns that allow external storage: with the writers' blob fraction, a value of their
/// blob size, stored as Core Data stores it (inline behind 0x01 below the threshold, else a file in
/// `_EXTERNAL_DATA` behind 0x02, written and renamed before the transaction that refers to it commits).
struct BlobPolicy {
    var columns: Set<String>
    var fraction: Double
    var size: Int
    var files: StoreFiles
    var sync: Bool
    var threshold = StoreOptions().externalStorageThreshold

    /// A value for the column, or nil when the column takes an ordinary one.
    func value(table: String, column: (name: String, type: String), random: inout SeededRandom) throws -> DatabaseValue? {
        guard columns.contains(table + "." + column.name) else { return nil }
        guard Double(random.next() % 10_000) / 10_000 < fraction else { return DatabaseValue.null }
        let data = Data(random.bytes(max(1, size)))
        if data.count >= threshold { return try ExternalDataFiles.store(data, in: files, sync: sync).databaseValue }
        return ExternalDataReference.inline(data).encoded.databaseValue
    }
}
