import Foundation

extension PersistentStoreCoordinator {
    /// `destroyPersistentStore(at:type:options:)`: empties the store's database and journal files without
    /// unlinking them (other processes may hold them open), as documented. The -shm and the support folder stay:
    /// external data files are left behind as orphans, which `check` reports.
    public func destroy(at url: URL) throws {
        let files = StoreFiles(url)
        try unload(url)
        for file in [files.database, files.wal, files.journal] where FileManager.default.fileExists(atPath: file.path) {
            guard truncate(file.path, 0) == 0 else {
                throw StoreError.io("cannot truncate \(file.path): \(String(cString: strerror(errno)))")
            }
        }
    }
}
