import Foundation
import GRDB
import Synchronization

/// A store loaded into a coordinator: one SQLite connection on the `.sqlite` file in Core Data's layout.
///
/// Opening validates the model against the metadata's version hashes (error 134100 on mismatch) and runs an
/// inferred lightweight migration when the options ask for one; it never starts silently empty on an
/// incompatible store.
public final class PersistentStore: Sendable {
    public let files: StoreFiles
    public let model: ManagedObjectModel
    public let options: StoreOptions
    public let layout: StoreLayout
    public let metadata: StoreMetadata
    let queue: DatabaseQueue
    /// External data files made obsolete by saves, with when: removed once older than the grace period.
    let obsoleteFiles = Mutex<[(name: String, since: Date)]>([])

    /// Opens (or creates) the store at `url` with `model`.
    public init(at url: URL, model: ManagedObjectModel, options: StoreOptions = StoreOptions()) throws {
        let files = StoreFiles(url)
        let modelErrors = model.validationErrors()
        guard modelErrors.isEmpty else { throw StoreError.invalidObject("model: " + modelErrors.joined(separator: "; ")) }
        if options.readOnly, !files.exists { throw StoreError.missingStore(files.database.path) }
        if !options.readOnly {
            try FileManager.default.createDirectory(at: files.database.deletingLastPathComponent(),
                                                    withIntermediateDirectories: true)
        }
        let queue = try Self.openConnection(files.database, options: options)
        self.files = files
        self.model = model
        self.options = options
        self.queue = queue
        do {
            (layout, metadata) = try Self.prepare(queue, files: files, model: model, options: options)
        } catch {
            try? queue.close()
            throw error
        }
    }

    /// One connection with Core Data's pragmas: journal mode, synchronous level, no foreign keys.
    static func openConnection(_ database: URL, options: StoreOptions) throws -> DatabaseQueue {
        var configuration = Configuration()
        configuration.readonly = options.readOnly
        configuration.foreignKeysEnabled = false
        configuration.busyMode = .timeout(options.busyTimeout)
        configuration.label = database.lastPathComponent
        let journalMode = options.journalMode.rawValue.uppercased()
        let synchronous = options.synchronous.rawValue.uppercased()
        let readOnly = options.readOnly
        let incremental = options.incrementalAutoVacuum
        let busyTimeout = options.busyTimeout
        configuration.prepareDatabase { db in
            // Only a database with no table yet takes it: on an existing store this changes nothing.
            if incremental, !readOnly { try db.execute(sql: "PRAGMA auto_vacuum = INCREMENTAL") }
            if !readOnly {
                try retryingBusy(within: busyTimeout) { try db.execute(sql: "PRAGMA journal_mode = \(journalMode)") }
            }
            try db.execute(sql: "PRAGMA synchronous = \(synchronous)")
        }
        do {
            return try DatabaseQueue(path: database.path, configuration: configuration)
        } catch let error as DatabaseError {
            throw openError(error, database.path, options: options)
        }
    }

    /// What an SQLite error while opening says about the store: a lock held past the busy timeout is a lock
    /// (the file may be a sound store another process is writing), anything else means it is not a store.
    static func openError(_ error: DatabaseError, _ path: String, options: StoreOptions) -> StoreError {
        let reason = error.message ?? "\(error)"
        if error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED {
            return .sqlite("\(path) stayed locked by another connection for \(options.busyTimeout) s: \(reason)")
        }
        return .notACoreDataStore(path, reason: reason)
    }

    /// Runs `body` again while SQLite answers SQLITE_BUSY, for up to `timeout` seconds.
    ///
    /// SQLite does not call the busy handler where waiting could deadlock. `PRAGMA journal_mode = WAL` on a file
    /// with no page yet is such a place: it writes the first page, so two processes creating one store at once
    /// (two app extensions, or a scenario's writers) can both hold a read lock and want the write lock, and one is
    /// told "database is locked" at once (measured: 7 of 3,000 openers, three at a time on a new file). Waiting out
    /// the other's write is what the busy timeout asks for, so it is done here.
    static func retryingBusy(within timeout: Double, _ body: () throws -> Void) throws {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            do {
                return try body()
            } catch let error as DatabaseError where error.resultCode == .SQLITE_BUSY && Date() < deadline {
                usleep(5_000)
            }
        }
    }

    /// Creates the schema of an empty file, or reads and validates the metadata of an existing store.
    static func prepare(_ queue: DatabaseQueue, files: StoreFiles, model: ManagedObjectModel,
                        options: StoreOptions) throws -> (StoreLayout, StoreMetadata) {
        do {
            return try queue.inDatabase { db in
                let hasTables = try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0
                if hasTables == 0 {
                    guard !options.readOnly else {
                        throw StoreError.notACoreDataStore(files.database.path, reason: "the database is empty")
                    }
                    var result: (StoreLayout, StoreMetadata)?
                    try db.inTransaction(.immediate) {
                        // Another process may have created the schema while this one waited for the write lock
                        // (two writers adding a fresh store at once): then it is read like any existing store.
                        if try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0 == 0 {
                            result = try createSchema(db, model: model)
                        }
                        return .commit
                    }
                    if let result { return result }
                }
                guard try db.tableExists("Z_METADATA"), try db.tableExists("Z_PRIMARYKEY") else {
                    throw StoreError.notACoreDataStore(files.database.path, reason: "Z_METADATA or Z_PRIMARYKEY is missing")
                }
                let metadata = try readMetadata(db)
                let numbers = try readEntityNumbers(db)
                if metadata.versionHashes == model.versionHashes {
                    return (StoreLayout(model: model, entityNumbers: numbers), metadata)
                }
                let differences = LightweightMigration.differences(stored: metadata.versionHashes, model: model)
                // NSInferMappingModelAutomaticallyOption counts only with NSMigratePersistentStoresAutomaticallyOption
                // on; with migration on and inference off Core Data looks for a mapping model the app ships, and
                // there is none (docs/fidelity.md, "Lightweight migration and metadata").
                guard options.migrateAutomatically, !options.readOnly else {
                    throw StoreError.incompatibleModel(store: files.database.path, differences: differences)
                }
                var result: (StoreLayout, StoreMetadata)?
                try db.inTransaction(.immediate) {
                    result = try LightweightMigration.migrate(db, store: files.database.path, metadata: metadata,
                                                              numbers: numbers, to: model, infer: options.inferMappingModel,
                                                              differences: differences)
                    return .commit
                }
                return result!
            }
        } catch let error as DatabaseError {
            throw openError(error, files.database.path, options: options)
        }
    }

    static func createSchema(_ db: Database, model: ManagedObjectModel) throws -> (StoreLayout, StoreMetadata) {
        let layout = StoreLayout.fresh(model)
        for statement in StoreLayout.bookkeepingDDL { try db.execute(sql: statement) }
        for entity in model.entities {
            if layout.ownsTable(entity) { for statement in layout.entityDDL(entity) { try db.execute(sql: statement) } }
            try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, ?, 0)",
                           arguments: [layout.number(entity.name), entity.name, layout.superNumber(entity.name)])
        }
        for join in layout.joinTables {
            for statement in layout.joinTableDDL(join) { try db.execute(sql: statement) }
        }
        let metadata = StoreMetadata(model: model)
        try writeMetadata(db, metadata)
        try db.execute(sql: "INSERT INTO Z_MODELCACHE (Z_CONTENT) VALUES (?)", arguments: [try ModelCache.encode(model)])
        return (layout, metadata)
    }

    static func readMetadata(_ db: Database) throws -> StoreMetadata {
        guard let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
              let plist = SafeColumn.blob(row, "Z_PLIST")
        else { throw StoreError.badMetadata("no Z_METADATA row with Z_VERSION = 1 and a Z_PLIST blob") }
        return try StoreMetadata(plistData: plist, uuid: SafeColumn.text(row, "Z_UUID"))
    }

    static func writeMetadata(_ db: Database, _ metadata: StoreMetadata) throws {
        try db.execute(sql: "INSERT OR REPLACE INTO Z_METADATA (Z_VERSION, Z_UUID, Z_PLIST) VALUES (1, ?, ?)",
                       arguments: [metadata.storeUUID, try metadata.plistData()])
    }

    /// `setMetadata(_:for:)`: writes the store's metadata (an app's own keys in `otherKeys`) in one transaction.
    public func setMetadata(_ metadata: StoreMetadata) throws {
        try queue.inDatabase { db in
            try db.inTransaction(.immediate) {
                try Self.writeMetadata(db, metadata)
                return .commit
            }
        }
    }

    static func readEntityNumbers(_ db: Database) throws -> [String: Int64] {
        var numbers: [String: Int64] = [:]
        for row in try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY") {
            if let name = SafeColumn.text(row, "Z_NAME"), let number = SafeColumn.integer(row, "Z_ENT") { numbers[name] = number }
        }
        return numbers
    }

    /// Closes the connection. Every later call on this store fails. Obsolete external files still within their
    /// grace period stay behind (orphans `check` lists), as they would when an app quits.
    public func close() throws {
        removeObsoleteFiles()
        try queue.close()
    }

    /// Removes the obsolete external data files whose grace period has passed.
    func removeObsoleteFiles(now: Date = Date()) {
        let due = obsoleteFiles.withLock { pending -> [String] in
            let ripe = pending.filter { now.timeIntervalSince($0.since) >= options.externalDataGracePeriod }.map(\.name)
            pending.removeAll { now.timeIntervalSince($0.since) >= options.externalDataGracePeriod }
            return ripe
        }
        for name in due { try? FileManager.default.removeItem(at: files.externalFile(name)) }
    }

    /// Runs `body` in a read transaction (a consistent snapshot of the store).
    public func read<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.read(body)
    }

    /// Runs `body` on the connection without a transaction: for pragmas, checkpoints and the backup API.
    public func withConnection<T>(_ body: (Database) throws -> T) throws -> T {
        try queue.inDatabase(body)
    }

    /// `PRAGMA wal_checkpoint(mode)`: (busy, log frames, checkpointed frames).
    @discardableResult
    public func checkpoint(_ mode: String = "TRUNCATE") throws -> (busy: Int, log: Int, checkpointed: Int) {
        try queue.inDatabase { db in
            let row = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(\(mode))")
            return (row?[0] ?? 0, row?[1] ?? 0, row?[2] ?? 0)
        }
    }
}
