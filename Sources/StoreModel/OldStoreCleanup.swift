import Foundation

/// Seed 002's cleanup of a moved store's old files (Kris Slazinski, "How to migrate NSPersistentCloudKitContainer
/// to App Groups"): `destroyPersistentStore(at: oldStoreURL)`, then, in a coordinated write, `removeItem` on the old
/// `.sqlite` and on `<container.name>.sqlite-shm`, `-wal` and `ckAssetFiles` beside it, every error ignored
/// (`try?`). The companions are named after the CloudKit container, not the store: unless the two names agree, the
/// store's own `-wal` and `-shm` stay. The one implementation behind the `relocate-app-group` strategies and the
/// scenario step `cleanup: old-store`.
public enum OldStoreCleanup {
    /// Destroys the old store (truncates its files, removes its support folder), then removes its files as the
    /// seed does; returns the files of the old store left behind.
    @discardableResult
    public static func run(_ old: URL, containerName: String, coordinator: PersistentStoreCoordinator) throws -> [String] {
        try coordinator.destroy(at: old)
        return removeFiles(old, containerName: containerName)
    }

    /// The seed's `removeItem` calls alone; returns the files of the old store left behind.
    @discardableResult
    public static func removeFiles(_ old: URL, containerName: String) -> [String] {
        let directory = old.deletingLastPathComponent()
        try? FileManager.default.removeItem(at: old)
        for name in ["\(containerName).sqlite-shm", "\(containerName).sqlite-wal", "ckAssetFiles"] {
            try? FileManager.default.removeItem(at: directory.appendingPathComponent(name))
        }
        let files = StoreFiles(old)
        return [files.database, files.wal, files.shm, files.journal].filter { FileManager.default.fileExists(atPath: $0.path) }
            .map(\.lastPathComponent)
    }
}
