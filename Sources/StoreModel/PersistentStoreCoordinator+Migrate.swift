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
    /// Run VACUUM on the destination after the copy.
    public var vacuum = false
    public init(vacuum: Bool = false) { self.vacuum = vacuum }
}

extension PersistentStoreCoordinator {
    /// `migratePersistentStore(_:to:options:withType:)`: loads every object of `store` into memory, inserts them
    /// into the store at `url` and removes `store` from the coordinator.
    ///
    /// As in Core Data, an existing destination is not replaced: the objects are appended to what it holds, so
    /// migrating twice into the same backup duplicates every object. External data is written anew next to the
    /// destination.
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
        let destination = try addStore(at: url, options: options)
        do {
            report.objectsAlreadyInDestination = try destination.read { db in
                // One count per table: a hierarchy's entities share their root's.
                try destination.model.entities.filter { destination.layout.ownsTable($0) }.reduce(0) { total, entity in
                    total + (try Int.fetchOne(db, sql: "SELECT count(*) FROM \(destination.layout.table(entity.name))") ?? 0)
                }
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
