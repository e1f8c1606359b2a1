import Foundation
import Synchronization

/// Core Data's persistent store coordinator: the stores it has loaded, and the operations that copy, replace
/// and destroy them, with their documented behaviour (and pitfalls) reproduced.
public final class PersistentStoreCoordinator: Sendable {
    public let model: ManagedObjectModel
    private let loaded = Mutex<[String: PersistentStore]>([:])

    public init(model: ManagedObjectModel) {
        self.model = model
    }

    /// Adds (loads) the store at `url`, creating it when the file does not exist or is empty.
    @discardableResult
    public func addStore(at url: URL, options: StoreOptions = StoreOptions()) throws -> PersistentStore {
        let path = StoreFiles(url).database.path
        if loaded.withLock({ $0[path] }) != nil { throw StoreError.alreadyLoaded(path) }
        let store = try PersistentStore(at: url, model: model, options: options)
        loaded.withLock { $0[path] = store }
        return store
    }

    /// Removes a store from the coordinator and closes its connection.
    public func remove(_ store: PersistentStore) throws {
        let path = store.files.database.path
        guard loaded.withLock({ $0.removeValue(forKey: path) }) != nil else { throw StoreError.storeNotLoaded(path) }
        try store.close()
    }

    /// The loaded store at `url`, if any.
    public func store(at url: URL) -> PersistentStore? {
        loaded.withLock { $0[StoreFiles(url).database.path] }
    }

    public var stores: [PersistentStore] {
        loaded.withLock { Array($0.values) }
    }

    /// Unloads whatever store is loaded at `url` (replace and destroy do this to their destination).
    func unload(_ url: URL) throws {
        if let store = store(at: url) { try remove(store) }
    }
}
