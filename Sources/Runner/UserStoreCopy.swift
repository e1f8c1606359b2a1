import Foundation
import StoreModel

/// The live store of a drill on a user's own store (`store: {from: PATH}`): a copy of the database, its -wal and
/// its external data (never the -shm, which SQLite rebuilds), under the run's live store name. The user's files
/// are only read.
enum UserStoreCopy {
    static func copy(_ source: URL, to live: URL) throws {
        let from = StoreFiles(source), to = StoreFiles(live)
        try StoreSnapshot.requireRegularFile(from.database, what: "the store named by store.from")
        try FileManager.default.createDirectory(at: live.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileCopy.copy(from.database, to: to.database, allowClone: true)
        if FileManager.default.fileExists(atPath: from.wal.path) {
            try StoreSnapshot.requireRegularFile(from.wal, what: "the store's -wal")
            try FileCopy.copy(from.wal, to: to.wal, allowClone: true)
        }
        if FileManager.default.fileExists(atPath: from.externalDataFolder.path) {
            try FileCopy.replaceFolder(to.externalDataFolder, withCopyOf: from.externalDataFolder)
        }
    }
}
