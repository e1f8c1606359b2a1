import Foundation
import StoreCheck
import StoreModel

extension BenchRunner {
    /// A user's store as the bench measures it: "migrate or replace for my store?" is answered on a copy of that
    /// store (database, -wal, external data; never the -shm), made once in the bench's work folder so every
    /// round starts from the same files and the original is only read.
    func prepareUserStore(_ url: URL, work: URL) throws -> StoreCache.Entry {
        let source = StoreFiles(url)
        do {
            try StoreSnapshot.requireRegularFile(source.database, what: "the store")
        } catch {
            throw BenchError.badInput("\(error)")
        }
        let folder = work.appendingPathComponent("user-store", isDirectory: true)
        try? FileManager.default.removeItem(at: folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let copy = StoreFiles(folder.appendingPathComponent(source.database.lastPathComponent))
        try FileCopy.copy(source.database, to: copy.database)
        if FileManager.default.fileExists(atPath: source.wal.path) {
            try StoreSnapshot.requireRegularFile(source.wal, what: "the store's -wal")
            try FileCopy.copy(source.wal, to: copy.wal)
        }
        var externalFiles = 0
        if FileManager.default.fileExists(atPath: source.externalDataFolder.path) {
            externalFiles = try FileCopy.replaceFolder(copy.externalDataFolder, withCopyOf: source.externalDataFolder, durable: false)
        }
        let report = try StoreVerifier.verify(copy.database)
        if let reason = report.unopenable { throw BenchError.badInput(reason) }
        let bytes = StoreSize.of(copy.database)
        let manifest = StoreCache.Manifest(targetBytes: bytes, blobFraction: 0, blobSize: 0, seed: 0, actualBytes: bytes,
                                           databaseBytes: StoreFiles.size(copy.database) ?? 0, externalFiles: externalFiles,
                                           objects: report.objectCounts.values.reduce(0, +), attachments: report.externalReferences)
        return StoreCache.Entry(database: copy.database, manifest: manifest, reused: true)
    }
}
