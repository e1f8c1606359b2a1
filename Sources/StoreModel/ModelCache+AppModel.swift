import Foundation
import GRDB

extension ManagedObjectModel {
    /// The model an app opens the store at `url` with: the one in the store's `Z_MODELCACHE` where that model
    /// has entity inheritance (only the library model with its `Item` hierarchy makes such stores, so it is the
    /// app's model), else `fallback`. Models without inheritance stay the caller's choice because the drills of
    /// an incompatible model (`app_model: library-v2`) open a store with a model that is not its own on purpose.
    /// Reads through a read-only connection; a store that cannot be read gives `fallback` (the operation then
    /// reports why it cannot open it).
    public static func appModel(for url: URL, fallback: ManagedObjectModel) -> ManagedObjectModel {
        let database = StoreFiles(url).database
        // Only a regular file is ever opened: SQLite would block opening a FIFO.
        guard (try? StoreSnapshot.requireRegularFile(database, what: "the store")) != nil,
              let queue = try? LayoutMigration.openReadOnly(database)
        else { return fallback }
        defer { try? queue.close() }
        let cached: ManagedObjectModel? = try? queue.read { db in
            guard try db.tableExists("Z_MODELCACHE"),
                  let data = try Data.fetchOne(db, sql: "SELECT Z_CONTENT FROM Z_MODELCACHE LIMIT 1")
            else { return nil }
            return ModelCache.decode(data)
        }
        guard let cached, cached.hasInheritance, cached.validationErrors().isEmpty else { return fallback }
        return cached
    }
}
