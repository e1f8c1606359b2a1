import Foundation

extension PersistentStoreCoordinator {
    /// `destroyPersistentStore(at:type:options:)`: unloads the store, then empties its files the way SQLite's
    /// `SQLITE_TRUNCATE_DATABASE` does (Apple's `sqlite3_private.h`): the database and the `-wal` truncated to
    /// zero bytes (never unlinked: other processes may hold them open, as the header documents), a rollback
    /// journal unlinked, the first bytes of the `-shm` scrambled so every other connection rebuilds its index.
    /// Then the support folder goes (external data included), as Core Data's `_destroyPersistentStoreAtURL`
    /// does after the SQLite call (decompiled iOS 26.1; docs/fidelity.md).
    public func destroy(at url: URL) throws {
        try unload(url)
        try Self.destroyFiles(StoreFiles(url))
    }

    /// The file work of `destroy` on a store nobody in this process has loaded.
    static func destroyFiles(_ files: StoreFiles) throws {
        for file in [files.database, files.wal] where FileManager.default.fileExists(atPath: file.path) {
            guard truncate(file.path, 0) == 0 else {
                throw StoreError.io("cannot truncate \(file.path): \(String(cString: strerror(errno)))")
            }
        }
        if unlink(files.journal.path) != 0, errno != ENOENT {
            throw StoreError.io("cannot unlink \(files.journal.path): \(String(cString: strerror(errno)))")
        }
        try scrambleSharedMemoryHeader(files.shm)
        if FileManager.default.fileExists(atPath: files.supportFolder.path) {
            do {
                try FileManager.default.removeItem(at: files.supportFolder)
            } catch {
                throw StoreError.io("Failed to delete support directory for store: \(files.supportFolder.path): \(error.localizedDescription)")
            }
        }
    }

    /// Overwrites the start of the WAL index (its header's first copy) with bytes no header has, in place.
    static func scrambleSharedMemoryHeader(_ shm: URL) throws {
        let fd = open(shm.path, O_WRONLY | O_CLOEXEC)
        guard fd >= 0 else {
            if errno == ENOENT { return }
            throw StoreError.io("cannot open \(shm.path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_size > 0 else { return }
        let bytes = (0..<min(16, Int(info.st_size))).map { _ in UInt8.random(in: 0...255) | 0x80 }
        guard pwrite(fd, bytes, bytes.count, 0) == bytes.count else {
            throw StoreError.io("cannot scramble \(shm.path): \(String(cString: strerror(errno)))")
        }
    }
}
