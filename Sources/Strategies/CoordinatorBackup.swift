import Foundation
import StoreModel

/// `migrate` backup (docs/pitfalls.md: [harrington-backup], [begemann]): a second, throwaway coordinator adds the live store and migrates it to the
/// backup location, so the app's own coordinator keeps its store. Loads the whole store into memory; into an
/// existing backup it appends, duplicating every object.
public struct MigrateBackup: BackupStrategy {
    public init() {}
    public var name: String { "migrate" }
    public var summary: String { "migratePersistentStore on a second coordinator (loads everything; appends into an existing backup)" }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            var destinationOptions = options.storeOptions
            if options.singleFileBackup { destinationOptions.journalMode = .delete }
            let target = backupStore(for: live, in: directory)
            let report = try MigrateOperation.run(from: live, to: target, model: model, sourceOptions: options.storeOptions,
                                                  destinationOptions: destinationOptions, vacuum: options.vacuum,
                                                  existingDestination: options.migrateExistingDestination,
                                                  keepSourceKeys: options.keepSourceKeys)
            var outcome = StrategyOutcome(strategy: name, store: target)
            outcome.details["objects"] = String(report.objects)
            outcome.details["bytesLoaded"] = String(report.bytesLoaded)
            outcome.details["objectsAlreadyInDestination"] = String(report.objectsAlreadyInDestination)
            return outcome
        }
    }
}

/// `replace` backup (docs/pitfalls.md: [harrington-redux]): replacePersistentStore with the backup location as destination ("replace
/// emptiness to make a copy"): an SQLite-level copy with the external data, cloned where possible.
public struct ReplaceBackup: BackupStrategy {
    public init() {}
    public var name: String { "replace" }
    public var summary: String { "replacePersistentStore into the backup location (SQLite-level copy + blobs, clone where possible)" }

    public func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            let coordinator = PersistentStoreCoordinator(model: model)
            let target = backupStore(for: live, in: directory)
            let report = try coordinator.replace(at: target, from: live, options: options.replaceOptions)
            var outcome = StrategyOutcome(strategy: name, store: target)
            outcome.details["usedClone"] = String(report.usedClone)
            if let reason = report.cloneSkipped { outcome.details["cloneSkipped"] = reason }
            outcome.details["externalFiles"] = String(report.externalFiles)
            return outcome
        }
    }
}
