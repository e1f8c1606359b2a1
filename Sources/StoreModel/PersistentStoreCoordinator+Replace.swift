import CLifeboatSys
import Foundation
import GRDB

/// What replace did, for reports.
public struct ReplaceReport: Sendable, Hashable, Codable {
    /// True when the database file was cloned (FICLONE) rather than copied page by page.
    public var usedClone = false
    public var backup = SQLiteBackup.Statistics()
    public var externalFiles = 0
    /// Why a clone was not used, when one was allowed.
    public var cloneSkipped: String?
}

public struct ReplaceOptions: Sendable, Hashable, Codable {
    /// Clone the database file where the file system can and the source is quiescent.
    public var allowClone = true
    /// Copy the support folder (external data) along; Core Data always does.
    public var copyExternalData = true
    public var backup = SQLiteBackup.Options()
    public init(allowClone: Bool = true, copyExternalData: Bool = true, backup: SQLiteBackup.Options = SQLiteBackup.Options()) {
        self.allowClone = allowClone
        self.copyExternalData = copyExternalData
        self.backup = backup
    }
}

extension PersistentStoreCoordinator {
    /// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:...)`: makes the store at
    /// `destination` a copy of the store at `source`, through SQLite (so committed WAL content is included and a
    /// stale -wal at the destination is dealt with), with the external data copied along.
    ///
    /// A store loaded at the destination is unloaded first; a missing destination is created ("replace emptiness
    /// to make a copy"). The source stays usable by its writers: the copy is one read snapshot, held while the
    /// external data is copied too. Where the file system clones and no writer holds the source, the database
    /// file is cloned (FICLONE), the Linux analogue of the APFS clone the Apple engineer describes.
    @discardableResult
    public func replace(at destination: URL, from source: URL, options: ReplaceOptions = ReplaceOptions()) throws -> ReplaceReport {
        let sourceFiles = StoreFiles(source), destinationFiles = StoreFiles(destination)
        guard sourceFiles.exists else { throw StoreError.missingStore(source.path) }
        guard sourceFiles != destinationFiles else { throw StoreError.io("replace: source and destination are the same store") }
        try unload(destination)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        var report = ReplaceReport()
        if options.allowClone {
            // Only a file system that clones is worth the write lock and checkpoint a clone needs: elsewhere the
            // source is never opened for writing, so a replace leaves its bytes (and its -wal) as they were.
            if let reason = Self.cloneUnavailable(sourceFiles, into: destinationFiles) {
                report.cloneSkipped = reason
            } else {
                let writable = try PlainConnection.open(source)
                defer { try? writable.close() }
                if let reason = try cloneIfQuiescent(writable, sourceFiles, destinationFiles, options: options, report: &report) {
                    report.cloneSkipped = reason
                } else {
                    return report
                }
            }
        }
        let sourceQueue = try PlainConnection.open(source, readOnly: true)
        defer { try? sourceQueue.close() }
        let destinationQueue = try PlainConnection.open(destination)
        defer { try? destinationQueue.close() }
        try sourceQueue.inDatabase { sourceDB in
            // One read snapshot for the pages and the external files alike.
            try sourceDB.execute(sql: "BEGIN DEFERRED")
            defer { try? sourceDB.execute(sql: "COMMIT") }
            _ = try Int.fetchOne(sourceDB, sql: "SELECT count(*) FROM sqlite_master")
            try destinationQueue.inDatabase { destinationDB in
                try Self.allowPageSizeChange(from: sourceDB, to: destinationDB)
                report.backup = try SQLiteBackup.copy(from: sourceDB, to: destinationDB, options: options.backup)
            }
            if options.copyExternalData {
                report.externalFiles = try copyExternalData(sourceFiles, destinationFiles, allowClone: options.allowClone)
            }
        }
        return report
    }

    /// SQLite's backup cannot change the page size of a destination in WAL mode (a 2 KiB-page backup restored
    /// over a 4 KiB-page live store fails with "readonly database"); Core Data's replace copies whatever the page
    /// size. The destination is about to be overwritten whole, so it leaves WAL mode first (which checkpoints its
    /// -wal into it); the copied header then carries the source's journal mode again.
    static func allowPageSizeChange(from source: Database, to destination: Database) throws {
        let mine = try Int.fetchOne(source, sql: "PRAGMA page_size") ?? 0
        let theirs = try Int.fetchOne(destination, sql: "PRAGMA page_size") ?? 0
        guard mine != theirs, try String.fetchOne(destination, sql: "PRAGMA journal_mode")?.lowercased() == "wal" else { return }
        try destination.execute(sql: "PRAGMA journal_mode = DELETE")
    }

    /// Why the destination's file system cannot clone the source's database, or nil when it can: a trial clone
    /// of the database file's first block into a scratch file beside the destination, read-only on the source.
    static func cloneUnavailable(_ source: StoreFiles, into destination: StoreFiles) -> String? {
        let input = open(source.database.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard input >= 0 else { return "cannot open the source: \(String(cString: strerror(errno)))" }
        defer { close(input) }
        let trial = destination.database.deletingLastPathComponent()
            .appendingPathComponent(".\(destination.database.lastPathComponent).clone-probe-\(UUID().uuidString.prefix(8))")
        let output = lb_open(trial.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard output >= 0 else { return "cannot create \(trial.path): \(String(cString: strerror(errno)))" }
        defer {
            close(output)
            unlink(trial.path)
        }
        return lb_ficlone_probe(output, input) == 0 ? nil : "the file system cannot clone (\(String(cString: strerror(errno))))"
    }

    /// Clones the database file while holding the source's write lock with an empty WAL; returns why not, or nil.
    private func cloneIfQuiescent(_ sourceQueue: DatabaseQueue, _ source: StoreFiles, _ destination: StoreFiles,
                                  options: ReplaceOptions, report: inout ReplaceReport) throws -> String? {
        try sourceQueue.inDatabase { db in
            let checkpoint = try Row.fetchOne(db, sql: "PRAGMA wal_checkpoint(TRUNCATE)")
            if (checkpoint?[0] as Int?) ?? 0 != 0 { return "a reader kept the WAL from being checkpointed" }
            do {
                try db.execute(sql: "BEGIN IMMEDIATE")
            } catch {
                return "a writer holds the source"
            }
            defer { try? db.execute(sql: "COMMIT") }
            if let walSize = StoreFiles.size(source.wal), walSize > 0 { return "the WAL is not empty" }
            let staging = destination.database.deletingLastPathComponent()
                .appendingPathComponent(".\(destination.database.lastPathComponent).clone-\(UUID().uuidString.prefix(8))")
            let method = try FileCopy.copy(source.database, to: staging, allowClone: true)
            guard method == .clone else {
                try? FileManager.default.removeItem(at: staging)
                return "the file system cannot clone (copy used \(method.rawValue))"
            }
            if options.copyExternalData {
                report.externalFiles = try copyExternalData(source, destination, allowClone: true)
            }
            for companion in destination.companions where FileManager.default.fileExists(atPath: companion.path) {
                try FileManager.default.removeItem(at: companion)
            }
            guard rename(staging.path, destination.database.path) == 0 else {
                throw StoreError.io("cannot rename clone into \(destination.database.path): \(String(cString: strerror(errno)))")
            }
            try ExternalDataFiles.syncDirectory(destination.database.deletingLastPathComponent())
            report.usedClone = true
            return nil
        }
    }

    private func copyExternalData(_ source: StoreFiles, _ destination: StoreFiles, allowClone: Bool) throws -> Int {
        guard FileManager.default.fileExists(atPath: source.externalDataFolder.path) else {
            if FileManager.default.fileExists(atPath: destination.supportFolder.path) {
                try FileManager.default.removeItem(at: destination.supportFolder)
            }
            return 0
        }
        return try FileCopy.replaceFolder(destination.externalDataFolder, withCopyOf: source.externalDataFolder, allowClone: allowClone)
    }
}
