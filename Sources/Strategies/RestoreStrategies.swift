import Foundation
import StoreModel

/// `destroy-then-migrate` (docs/pitfalls.md: [harrington-backup]): remove the live store, destroy it (truncate), add the backup on a
/// coordinator and migrate it to the live location. The backup is opened by Core Data's rules, so its journal
/// mode may change; the live store's old external data files stay behind as orphans.
public struct DestroyThenMigrateRestore: RestoreStrategy {
    public init() {}
    public var name: String { "destroy-then-migrate" }
    public var summary: String { "destroy the live store, then migrate the backup to its location (docs/pitfalls.md: [harrington-backup])" }

    public func restore(backup: URL, over live: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            let coordinator = PersistentStoreCoordinator(model: model)
            try StoreKind.requireReadable(backup)
            try coordinator.destroy(at: live)
            let report = try MigrateOperation.run(from: backup, to: live, model: model, sourceOptions: options.storeOptions,
                                                  destinationOptions: options.storeOptions, vacuum: false,
                                                  existingDestination: options.migrateExistingDestination,
                                                  keepSourceKeys: options.keepSourceKeys)
            var outcome = StrategyOutcome(strategy: name, store: live)
            outcome.details["objects"] = String(report.objects)
            outcome.details["objectsAlreadyInDestination"] = String(report.objectsAlreadyInDestination)
            return outcome
        }
    }
}

/// `replace-then-readd` (docs/pitfalls.md: [harrington-redux]): replace the live store with the backup (replace unloads it), then add it
/// again, which also proves it opens with the current model.
public struct ReplaceThenReaddRestore: RestoreStrategy {
    public init() {}
    public var name: String { "replace-then-readd" }
    public var summary: String { "replacePersistentStore(at: live, from: backup), then add the store again (docs/pitfalls.md: [harrington-redux])" }

    public func restore(backup: URL, over live: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            let coordinator = PersistentStoreCoordinator(model: model)
            try StoreKind.requireReadable(backup)
            let report = try coordinator.replace(at: live, from: backup, options: options.replaceOptions)
            if try StoreKind.of(live) == .harness {
                let readded = try coordinator.addStore(at: live, options: options.storeOptions)
                try coordinator.remove(readded)
            } else {
                // A store of a model this harness does not hold: adding it again means it opens and reads whole.
                try StoreKind.requireReadable(live)
            }
            var outcome = StrategyOutcome(strategy: name, store: live)
            outcome.details["usedClone"] = String(report.usedClone)
            outcome.details["externalFiles"] = String(report.externalFiles)
            return outcome
        }
    }
}

/// `file-copy-over`: the naive restore, copying the backup's .sqlite over the live one (`cat backup > live`: in
/// place, in 64 KiB writes, no fsync) and leaving the live store's -wal and -shm in place; SQLite then replays the
/// stale WAL onto the restored file (see docs/pitfalls.md#a-stale--wal-or-hot-journal-is-replayed-onto-a-restored-file), and a crash mid-copy leaves a torn file (see docs/pitfalls.md#a-restore-cut-short-by-enospc-eio-or-a-crash).
public struct FileCopyOverRestore: RestoreStrategy {
    public init() {}
    public var name: String { "file-copy-over" }
    public var summary: String { "copy the backup .sqlite over the live one, leaving its -wal/-shm (naive)" }

    public func restore(backup: URL, over live: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            try StoreKind.requireReadable(backup)
            try FileCopy.copy(backup, to: live, allowClone: false, sync: false, plain: true, hold: options.hold)
            var outcome = StrategyOutcome(strategy: name, store: live)
            outcome.details["staleWAL"] = String(StoreFiles.size(StoreFiles(live).wal) ?? 0)
            return outcome
        }
    }
}

/// `relocate-migrate` (docs/pitfalls.md: [slazinski]): migrate the store to its new location. If the app already created a store
/// there (as an App Group container often has), the objects are appended: duplicated data.
public struct RelocateMigrate: RelocationStrategy {
    public init() {}
    public var name: String { "relocate-migrate" }
    public var summary: String { "migrate the store to the new location (appends into an existing store there: duplicates)" }

    public func relocate(from old: URL, to new: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            try AppGroupMove.waitForMirrorIfOn(old, options: options)
            let report = try MigrateOperation.run(from: old, to: new, model: model, sourceOptions: options.storeOptions,
                                                  destinationOptions: options.storeOptions, vacuum: false,
                                                  existingDestination: options.migrateExistingDestination,
                                                  keepSourceKeys: options.keepSourceKeys)
            var outcome = StrategyOutcome(strategy: name, store: new)
            outcome.details["objects"] = String(report.objects)
            outcome.details["objectsAlreadyInDestination"] = String(report.objectsAlreadyInDestination)
            return outcome
        }
    }
}

/// `relocate-replace` (the fix for docs/pitfalls.md: [slazinski]): replace the new location with the old store, then destroy the old one.
public struct RelocateReplace: RelocationStrategy {
    public init() {}
    public var name: String { "relocate-replace" }
    public var summary: String { "replacePersistentStore at the new location from the old, then destroy the old store" }

    public func relocate(from old: URL, to new: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            try AppGroupMove.waitForMirrorIfOn(old, options: options)
            let coordinator = PersistentStoreCoordinator(model: model)
            let report = try coordinator.replace(at: new, from: old, options: options.replaceOptions)
            try coordinator.destroy(at: old)
            var outcome = StrategyOutcome(strategy: name, store: new)
            outcome.details["usedClone"] = String(report.usedClone)
            return outcome
        }
    }
}
