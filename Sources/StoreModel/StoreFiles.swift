import Foundation

/// The files that make up one store on disk: the database, its SQLite companions and the support folder.
///
/// Plain file copies go wrong by forgetting one of these; everything that moves a store goes through this list.
public struct StoreFiles: Sendable, Hashable, CustomStringConvertible {
    /// The `.sqlite` file.
    public let database: URL

    public init(_ database: URL) {
        self.database = database.standardizedFileURL
    }

    public var wal: URL { URL(fileURLWithPath: database.path + "-wal") }
    public var shm: URL { URL(fileURLWithPath: database.path + "-shm") }
    public var journal: URL { URL(fileURLWithPath: database.path + "-journal") }

    /// `.<StoreNameWithoutExtension>_SUPPORT`, next to the store.
    public var supportFolder: URL {
        let name = database.deletingPathExtension().lastPathComponent
        return database.deletingLastPathComponent().appendingPathComponent(".\(name)_SUPPORT", isDirectory: true)
    }

    /// `_EXTERNAL_DATA` inside the support folder: one file per externally stored value, named by a UUID.
    public var externalDataFolder: URL {
        supportFolder.appendingPathComponent("_EXTERNAL_DATA", isDirectory: true)
    }

    public func externalFile(_ name: String) -> URL {
        externalDataFolder.appendingPathComponent(name, isDirectory: false)
    }

    /// The SQLite companions that must move, or be removed, together with the database file.
    public var companions: [URL] { [wal, shm, journal] }

    public var description: String { database.path }

    public var exists: Bool { FileManager.default.fileExists(atPath: database.path) }

    /// Size of a file, or nil when it does not exist.
    public static func size(_ url: URL) -> Int64? {
        var info = stat()
        guard stat(url.path, &info) == 0 else { return nil }
        return Int64(info.st_size)
    }

    /// Names of the files in `_EXTERNAL_DATA` (empty when the folder does not exist).
    public func externalFileNames() -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: externalDataFolder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted()
    }

    /// Removes the database, its companions and the support folder: used only on scratch destinations.
    public func removeAll() throws {
        for url in [database] + companions where FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
        if FileManager.default.fileExists(atPath: supportFolder.path) {
            try FileManager.default.removeItem(at: supportFolder)
        }
    }
}
