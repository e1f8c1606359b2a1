import Foundation
import StoreModel

/// Plain file copies, the way people first try: the pitfalls are what they leave out.
///
/// - `file-copy`: the .sqlite only; committed transactions still in the -wal are lost.
/// - `file-copy-all`: .sqlite, -wal and -shm, but not the support folder; external data is lost, and a write in
///   flight between the copies tears the backup.
/// - `file-copy-full`: everything including the support folder, with no coordination with writers.
public struct FileCopyBackup: BackupStrategy {
    public enum Scope: String, Sendable, CaseIterable { case database, companions, everything }
    public let scope: Scope

    public init(scope: Scope) { self.scope = scope }

    public var name: String {
        switch scope {
        case .database: "file-copy"
        case .companions: "file-copy-all"
        case .everything: "file-copy-full"
        }
    }

    public var summary: String {
        switch scope {
        case .database: "copy the .sqlite file only (loses what is still in the -wal, forgets blobs)"
        case .companions: "copy .sqlite, -wal and -shm (forgets the external data folder; torn if a write is in flight)"
        case .everything: "copy every file incl. the support folder, with no coordination with writers"
        }
    }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            let source = StoreFiles(live)
            guard source.exists else { throw StoreError.missingStore(live.path) }
            let target = StoreFiles(backupStore(for: live, in: directory))
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            var copied = [source.database.lastPathComponent]
            try FileCopy.copy(source.database, to: target.database, allowClone: false, hold: options.hold)
            if scope != .database {
                for (from, to) in zip([source.wal, source.shm], [target.wal, target.shm]) where FileManager.default.fileExists(atPath: from.path) {
                    try FileCopy.copy(from, to: to, allowClone: false)
                    copied.append(from.lastPathComponent)
                }
            }
            if scope == .everything, FileManager.default.fileExists(atPath: source.externalDataFolder.path) {
                // As `cp -R` does: each file's data is written out, the directories naming them are not synced.
                let count = try FileCopy.replaceFolder(target.externalDataFolder, withCopyOf: source.externalDataFolder,
                                                       allowClone: false, durable: false)
                copied.append("\(count) external data files")
            }
            var outcome = StrategyOutcome(strategy: name, store: target.database)
            outcome.details["copied"] = copied.joined(separator: ", ")
            return outcome
        }
    }
}
