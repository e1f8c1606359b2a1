import Foundation
import GRDB

/// What migrate did, for reports.
public struct MigrateReport: Sendable, Hashable, Codable {
    public var objects = 0
    /// Bytes of attribute values held in memory at once (blobs included): migrate loads the whole store.
    public var bytesLoaded = 0
    /// Objects the destination held before: non-zero means the copy was appended to them.
    public var objectsAlreadyInDestination = 0
}

/// Options of migrate beyond the destination's store options (docs/pitfalls.md: [begemann], a single-file backup).
public struct MigrateOptions: Sendable, Hashable, Codable {
    /// What migrate does to a destination that already holds a store. The sources disagree (docs/fidelity.md):
    /// Harrington's "Backing up Core Data Stores" says repeated backups to one destination are fine (updated in
    /// place), while its restore section and Slazinski's App Group move report duplicated data.
    public enum ExistingDestination: String, Sendable, Hashable, Codable, CaseIterable {
        /// The objects are added to what the destination holds (duplicates): the default.
        case append
        /// The destination is emptied first (destroy), so it ends up a copy of the source.
        case overwrite
    }

    /// Run VACUUM on the destination after the copy.
    public var vacuum = false
    public var existingDestination: ExistingDestination = .append
    public init(vacuum: Bool = false, existingDestination: ExistingDestination = .append) {
        self.vacuum = vacuum
        self.existingDestination = existingDestination
    }
}

extension PersistentStoreCoordinator {
    /// `migratePersistentStore(_:to:options:withType:)`: loads every object of `store` into memory, inserts them
    /// into the store at `url` and removes `store` from the coordinator.
    ///
    /// As Core Data documents it ("Loads all objects from the old store ... The objects are given temporary
    /// IDs, then assigned to the new store"): every object is in memory before the first write, each gets a new
    /// primary key from the destination's `Z_MAX`, a fresh destination gets a new store UUID and the source's
    /// other metadata keys (with their plist types), and no persistent history or CloudKit rows are carried.
    /// An existing destination is appended to by default (migrating twice into one backup duplicates every
    /// object); `MigrateOptions.existingDestination` chooses the other reading. External data is written anew.
    public func migrate(_ store: PersistentStore, to url: URL, options: StoreOptions = StoreOptions(),
                        migrateOptions: MigrateOptions = MigrateOptions()) throws -> (PersistentStore, MigrateReport) {
        guard self.store(at: store.files.database) === store else { throw StoreError.storeNotLoaded(store.files.database.path) }
        let objects = try store.allObjects()
        var report = MigrateReport()
        report.objects = objects.count
        report.bytesLoaded = objects.reduce(0) { total, object in
            total + object.attributes.values.reduce(0) { $0 + ($1.binaryData?.count ?? 16) }
        }
        try unload(url)
        if migrateOptions.existingDestination == .overwrite, StoreFiles(url).exists { try Self.destroyFiles(StoreFiles(url)) }
        let fresh = (StoreFiles.size(StoreFiles(url).database) ?? 0) == 0
        let destination = try addStore(at: url, options: options)
        do {
            report.objectsAlreadyInDestination = try destination.read { db in
                // One count per table: a hierarchy's entities share their root's.
                try destination.model.entities.filter { destination.layout.ownsTable($0) }.reduce(0) { total, entity in
                    total + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(destination.layout.table(entity.name))") ?? 0)
                }
            }
            if fresh, !store.metadata.otherKeys.isEmpty {
                var metadata = destination.metadata
                metadata.otherKeys = store.metadata.otherKeys
                try destination.withConnection { try PersistentStore.writeMetadata($0, metadata) }
            }
            try destination.save { context in
                for object in objects { try context.insert(object.withoutRelationships) }
                for object in objects where !object.toOne.isEmpty || !object.toMany.isEmpty { try context.link(object) }
            }
            if migrateOptions.vacuum { try destination.withConnection { try $0.execute(sql: "VACUUM") } }
        } catch {
            try? remove(destination)
            throw error
        }
        try remove(store)
        return (destination, report)
    }
}
