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
    /// `destinationOptions`: the journal mode the replaced store gets, as `addPersistentStore` with these options
    /// would set it (nil: the source's, as copied). Apple: "pass similar options as addPersistentStoreWithType".
    public var journalMode: StoreOptions.JournalMode?
    /// `destinationOptions`' page size (`NSSQLitePragmasOption` page_size; nil: the source's).
    public var pageSize: Int?
    public init(allowClone: Bool = true, copyExternalData: Bool = true, backup: SQLiteBackup.Options = SQLiteBackup.Options(),
                journalMode: StoreOptions.JournalMode? = nil, pageSize: Int? = nil) {
        self.allowClone = allowClone
        self.copyExternalData = copyExternalData
        self.backup = backup
        self.journalMode = journalMode
        self.pageSize = pageSize
    }
}

extension PersistentStoreCoordinator {
    /// `replacePersistentStore(at:destinationOptions:withPersistentStoreFrom:...)`: makes the store at
    /// `destination` a copy of the store at `source`, through SQLite (so committed WAL content is included and a
    /// stale -wal at the destination is dealt with), with the support folder copied along.
    ///
    /// In Core Data's order (`+[NSSQLCore _replacePersistentStoreAtURL:...]`, decompiled iOS 26.1): the whole
    /// source support folder is first copied to a staging folder beside the destination's
    /// (`<support>_transsrc_...`), **before** the database and outside its read snapshot; then the pages are
    /// copied; then the destination's old support folder is moved aside (`_transdst_`), the staged one moved in
    /// and the old one deleted. A blob a writer adds between the two copies is referenced by the copied
    /// database but absent from the copied folder, as on a device (docs/fidelity.md).
    ///
    /// A store loaded at the destination is unloaded first; a missing destination is created ("replace
    /// emptiness to make a copy"). Where the file system clones, no writer holds the source and no other process
    /// has the destination open, the database file is cloned (FICLONE), the Linux analogue of the APFS clone the
    /// Apple engineer describes; a destination open elsewhere is copied into through SQLite instead, never
    /// renamed over. The journal mode and page size of `options` are applied as `addPersistentStore` would.
    @discardableResult
    public func replace(at destination: URL, from source: URL, options: ReplaceOptions = ReplaceOptions()) throws -> ReplaceReport {
        let sourceFiles = StoreFiles(source), destinationFiles = StoreFiles(destination)
        guard sourceFiles.exists else { throw StoreError.missingStore(source.path) }
        guard sourceFiles != destinationFiles else { throw StoreError.io("replace: source and destination are the same store") }
        try unload(destination)
        try FileManager.default.createDirectory(at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
        var report = ReplaceReport()
        let staged = options.copyExternalData ? try Self.stageSupportFolder(sourceFiles, destinationFiles, allowClone: options.allowClone) : nil
        do {
            if !(try copyDatabase(sourceFiles, destinationFiles, options: options, report: &report)) {
                let sourceQueue = try PlainConnection.open(source, readOnly: true)
                defer { try? sourceQueue.close() }
                let destinationQueue = try PlainConnection.open(destination)
                defer { try? destinationQueue.close() }
                try sourceQueue.inDatabase { sourceDB in
                    try destinationQueue.inDatabase { destinationDB in
                        try Self.allowPageSizeChange(from: sourceDB, to: destinationDB)
                        report.backup = try SQLiteBackup.copy(from: sourceDB, to: destinationDB, options: options.backup)
                    }
                }
            }
            try Self.applyDestinationOptions(destinationFiles, options)
            if options.copyExternalData {
                report.externalFiles = try Self.swapSupportFolder(staged, into: destinationFiles)
            }
        } catch {
            if let staged { try? FileManager.default.removeItem(at: staged) }
            throw error
        }
        return report
    }

    /// Clones the database when allowed and possible; false when the page copy must run instead.
    private func copyDatabase(_ source: StoreFiles, _ destination: StoreFiles, options: ReplaceOptions,
                              report: inout ReplaceReport) throws -> Bool {
        guard options.allowClone else { return false }
        // Only a file system that clones is worth the write lock and checkpoint a clone needs: elsewhere the
        // source is never opened for writing, so a replace leaves its bytes (and its -wal) as they were.
        if let reason = Self.cloneUnavailable(source, into: destination) {
            report.cloneSkipped = reason
            return false
        }
        if let holder = OpenFiles.holder(of: [destination.database, destination.wal, destination.shm]) {
            report.cloneSkipped = "the destination is open in process \(holder): copied into through SQLite, never renamed over"
            return false
        }
        let writable = try PlainConnection.open(source.database)
        defer { try? writable.close() }
        if let reason = try cloneIfQuiescent(writable, source, destination, report: &report) {
            report.cloneSkipped = reason
            return false
        }
        return true
    }

    /// Sets the destination's journal mode and page size as `destinationOptions` ask (nil: as copied).
    static func applyDestinationOptions(_ destination: StoreFiles, _ options: ReplaceOptions) throws {
        guard options.journalMode != nil || options.pageSize != nil else { return }
        let queue = try PlainConnection.open(destination.database)
        defer { try? queue.close() }
        try queue.inDatabase { db in
            let copied = try String.fetchOne(db, sql: "PRAGMA journal_mode") ?? "delete"
            if let size = options.pageSize, try Int.fetchOne(db, sql: "PRAGMA page_size") != size {
                // A WAL database cannot change its page size: leave WAL, VACUUM at the new size.
                try db.execute(sql: "PRAGMA journal_mode = DELETE")
                try db.execute(sql: "PRAGMA page_size = \(size)")
                try db.execute(sql: "VACUUM")
            }
            let mode = options.journalMode?.rawValue ?? copied
            try db.execute(sql: "PRAGMA journal_mode = \(mode.uppercased())")
        }
    }

    /// Copies the whole source support folder to `<destination support>_transsrc_<id>` and returns it (nil when
    /// the source has none).
    static func stageSupportFolder(_ source: StoreFiles, _ destination: StoreFiles, allowClone: Bool) throws -> URL? {
        guard FileManager.default.fileExists(atPath: source.supportFolder.path) else { return nil }
        let staging = URL(fileURLWithPath: destination.supportFolder.path + "_transsrc_\(UUID().uuidString.prefix(8))", isDirectory: true)
        var copied: [URL] = []
        do {
            try copyTree(source.supportFolder, to: staging, allowClone: allowClone, copied: &copied)
            try FileCopy.syncAll(copied)
        } catch {
            try? FileManager.default.removeItem(at: staging)
            throw error
        }
        return staging
    }

    /// Copies a folder tree (regular files and folders; anything else is skipped, as it cannot be a store's).
    static func copyTree(_ source: URL, to target: URL, allowClone: Bool, copied: inout [URL]) throws {
        try FileManager.default.createDirectory(at: target, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() {
            let from = source.appendingPathComponent(name), to = target.appendingPathComponent(name)
            var info = stat()
            guard lstat(from.path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR: try copyTree(from, to: to, allowClone: allowClone, copied: &copied)
            case S_IFREG:
                try FileCopy.copy(from, to: to, allowClone: allowClone, sync: false)
                copied.append(to)
            default: continue
            }
        }
    }

    /// Moves the destination's support folder aside (`_transdst_`), the staged one in, and deletes the old one;
    /// without a staged folder (the source has none) the destination's is removed. Returns the external data
    /// files now in place.
    static func swapSupportFolder(_ staged: URL?, into destination: StoreFiles) throws -> Int {
        let manager = FileManager.default
        let support = destination.supportFolder
        var aside: URL?
        if manager.fileExists(atPath: support.path) {
            let old = URL(fileURLWithPath: support.path + "_transdst_\(UUID().uuidString.prefix(8))", isDirectory: true)
            guard rename(support.path, old.path) == 0 else {
                throw StoreError.io("cannot move \(support.path) aside: \(String(cString: strerror(errno)))")
            }
            aside = old
        }
        if let staged {
            guard rename(staged.path, support.path) == 0 else {
                throw StoreError.io("cannot move \(staged.path) into place: \(String(cString: strerror(errno)))")
            }
        }
        try FileCopy.syncDirectory(support.deletingLastPathComponent())
        if let aside { try manager.removeItem(at: aside) }
        return destination.externalFileNames().count
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
                                  report: inout ReplaceReport) throws -> String? {
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
}
