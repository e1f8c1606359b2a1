import Foundation
import GRDB
import StoreModel

/// `backup-api`: SQLite's online backup API, N pages per step, from a connection that holds no transaction
/// between steps, so every write by another connection restarts it (see docs/pitfalls.md#the-backup-api-restarts-when-the-source-is-written); the restarts are counted. The
/// support folder is copied afterwards (the backup API knows nothing of Core Data's external data).
public struct BackupAPIBackup: BackupStrategy {
    public init() {}
    public var name: String { "backup-api" }
    public var summary: String { "sqlite3_backup_step loop, N pages per step, restarts counted (+ support folder copy)" }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try sqliteLevelBackup(live: live, into: directory, options: options) { target in
            // Read-only: the copy changes nothing in the live store (no checkpoint on close).
            let source = try PlainConnection.open(live, readOnly: true)
            defer { try? source.close() }
            let destination = try PlainConnection.open(target)
            defer { try? destination.close() }
            let backupOptions = SQLiteBackup.Options(pagesPerStep: options.pagesPerStep, stepDelay: options.stepDelay,
                                                     maxRestarts: options.maxRestarts, hold: options.hold, gate: options.gate)
            let statistics = try source.inDatabase { sourceDB in
                try destination.inDatabase { try SQLiteBackup.copy(from: sourceDB, to: $0, options: backupOptions) }
            }
            return ["steps": String(statistics.steps), "restarts": String(statistics.restarts),
                    "busyRetries": String(statistics.busyRetries), "pages": String(statistics.pages)]
        }
    }
}

/// `vacuum-into`: `VACUUM INTO` the backup path, a consistent snapshot in one read transaction; fails, as
/// SQLite does, when the destination exists and is not empty. The support folder is copied afterwards.
public struct VacuumIntoBackup: BackupStrategy {
    public init() {}
    public var name: String { "vacuum-into" }
    public var summary: String { "VACUUM INTO a new file (consistent snapshot; error if the destination is not empty) + support folder copy" }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try sqliteLevelBackup(live: live, into: directory, options: options) { target in
            let source = try PlainConnection.open(live, readOnly: true)
            defer { try? source.close() }
            do {
                try source.inDatabase { try $0.execute(sql: "VACUUM INTO ?", arguments: [target.path]) }
            } catch let error as DatabaseError {
                throw StoreError.sqlite("VACUUM INTO \(target.path): \(error.message ?? "\(error)")")
            }
            return [:]
        }
    }
}

/// `sqlite3-cli`: the real `sqlite3` shell's `.backup` command, as a shell script would run it.
public struct SQLite3CLIBackup: BackupStrategy {
    public init() {}
    public var name: String { "sqlite3-cli" }
    public var summary: String { "the sqlite3 shell's .backup command in a child process + support folder copy" }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try sqliteLevelBackup(live: live, into: directory, options: options) { target in
            guard let sqlite3 = ChildProcess.findExecutable("sqlite3") else {
                throw StoreError.io("sqlite3-cli: no sqlite3 binary on PATH (apt-get install sqlite3)")
            }
            let escaped = target.path.replacingOccurrences(of: "'", with: "''")
            let result = try ChildProcess.run(sqlite3, arguments: ["-bail", live.path, ".timeout 30000", ".backup '\(escaped)'"],
                                              timeout: options.timeout)
            guard result.status == 0 else {
                throw StoreError.io("sqlite3 .backup exited with \(result.status): \(result.output.suffix(500))")
            }
            return [:]
        }
    }
}

extension BackupStrategy {
    /// The frame the raw SQLite methods share: check the source, make the directory, copy the database with
    /// `copyDatabase` (which returns its details), then copy the support folder, which raw SQLite knows nothing
    /// of, unless the options say not to.
    func sqliteLevelBackup(live: URL, into directory: URL, options: StrategyOptions,
                           copyDatabase: (URL) throws -> [String: String]) throws -> StrategyOutcome {
        try timed {
            guard StoreFiles(live).exists else { throw StoreError.missingStore(live.path) }
            let target = backupStore(for: live, in: directory)
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var outcome = StrategyOutcome(strategy: name, store: target)
            outcome.details = try copyDatabase(target)
            if options.copyExternalData {
                outcome.details["externalFiles"] = String(try ExternalDataCopy.copy(from: live, to: target))
            }
            return outcome
        }
    }
}

/// Copying `_EXTERNAL_DATA` next to a backup made by a raw SQLite method.
enum ExternalDataCopy {
    static func copy(from live: URL, to target: URL) throws -> Int {
        let source = StoreFiles(live), destination = StoreFiles(target)
        guard FileManager.default.fileExists(atPath: source.externalDataFolder.path) else { return 0 }
        return try FileCopy.replaceFolder(destination.externalDataFolder, withCopyOf: source.externalDataFolder)
    }
}
