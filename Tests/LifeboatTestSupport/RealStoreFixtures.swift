import Crypto
import Foundation

/// The real Core Data stores committed under `Tests/Fixtures/RealStores`, copied into scratch before any use:
/// SQLite may create a `-shm` or checkpoint a `-wal` when it opens a store, and the fixtures must stay as taken.
public enum RealStoreFixtures {
    public static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/RealStores", isDirectory: true)

    /// The fixture folders, by name.
    public static var names: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
    }

    /// Copies one fixture's folder into `directory` (created) and returns the store's database file there.
    public static func copy(_ name: String, into directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let source = folder.appendingPathComponent(name, isDirectory: true)
        var database: URL?
        for file in try FileManager.default.contentsOfDirectory(atPath: source.path).sorted() where file != "LICENSE.txt" {
            let target = directory.appendingPathComponent(file)
            try FileManager.default.copyItem(at: source.appendingPathComponent(file), to: target)
            if !["-wal", "-shm", "-journal"].contains(where: file.hasSuffix) { database = target }
        }
        guard let database else { throw CocoaError(.fileNoSuchFile) }
        return database
    }
}

/// Every file under a folder with the SHA-256 of its bytes (or its kind, for what is not a regular file): two
/// equal listings mean nothing was written, created or removed.
public enum FolderDigest {
    public static func of(_ folder: URL) -> [String: String] {
        var result: [String: String] = [:]
        let manager = FileManager.default
        guard let walker = manager.enumerator(atPath: folder.path) else { return result }
        while let relative = walker.nextObject() as? String {
            let path = folder.appendingPathComponent(relative).path
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            if (info.st_mode & S_IFMT) == S_IFREG, let data = manager.contents(atPath: path) {
                result[relative] = SHA256.hash(data: data).map { String(format: "%02x", $0) }.joined()
            } else {
                result[relative] = "mode \(String(info.st_mode & S_IFMT, radix: 8))"
            }
        }
        return result
    }
}
