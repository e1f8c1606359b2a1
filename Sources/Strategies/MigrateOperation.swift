import Foundation
import StoreModel

/// migratePersistentStore as every migrate-based strategy runs it, on any store.
///
/// A store of this harness's model goes through the coordinator (object by object, with its identities); any
/// other Core Data store is migrated from its layout (`LayoutMigration`). Either way the source is opened
/// read-only: a migrate never changes its source, not even its journal mode (opening a rollback-journal store
/// with the app's WAL option would otherwise switch it to WAL before the copy has even begun).
enum MigrateOperation {
    static func run(from source: URL, to destination: URL, model: ManagedObjectModel, sourceOptions: StoreOptions,
                    destinationOptions: StoreOptions, vacuum: Bool,
                    existingDestination: MigrateOptions.ExistingDestination = .append, keepSourceKeys: Bool = false) throws -> MigrateReport {
        guard StoreFiles(source).exists else { throw StoreError.missingStore(source.path) }
        switch try StoreKind.of(source) {
        case .layout:
            return try LayoutMigration.migrate(from: source, to: destination,
                                               options: LayoutMigration.Options(journalMode: destinationOptions.journalMode, vacuum: vacuum,
                                                                               existingDestination: existingDestination,
                                                                               keepSourceKeys: keepSourceKeys))
        case .harness:
            var readOnly = sourceOptions
            readOnly.readOnly = true
            let coordinator = PersistentStoreCoordinator(model: model)
            let store = try coordinator.addStore(at: source, options: readOnly)
            let (copy, report) = try coordinator.migrate(store, to: destination, options: destinationOptions,
                                                         migrateOptions: MigrateOptions(vacuum: vacuum, existingDestination: existingDestination))
            try coordinator.remove(copy)
            return report
        }
    }
}
