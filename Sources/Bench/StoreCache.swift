import Foundation
import GRDB
import StoreModel

/// Generated stores of a given size, kept between runs: a 4 GB store takes minutes to build, so it is built
/// once per (size, blob fraction, blob size, seed) and reused while its manifest still matches the files.
public struct StoreCache: Sendable {
    public var root: URL

    public init(root: URL) { self.root = root }

    /// What was generated, written next to the store once it is complete (its presence marks a finished store).
    public struct Manifest: Codable, Sendable, Equatable {
        public var targetBytes: Int64
        public var blobFraction: Double
        public var blobSize: Int
        public var seed: UInt64
        public var actualBytes: Int64
        public var databaseBytes: Int64
        public var externalFiles: Int
        public var objects: Int
        public var attachments: Int
    }

    public struct Entry: Sendable, Codable {
        public var database: URL
        public var manifest: Manifest
        public var reused: Bool
    }

    /// The folder of one cached store.
    public func folder(targetBytes: Int64, blobFraction: Double, blobSize: Int, seed: UInt64) -> URL {
        root.appendingPathComponent(String(format: "store-%lldB-f%.4f-b%d-s%llu", targetBytes, blobFraction, blobSize, seed), isDirectory: true)
    }

    /// The cached store for these parameters, generated first when it is missing or no longer matches its manifest.
    public func store(targetBytes: Int64, blobFraction: Double, blobSize: Int, seed: UInt64,
                      progress: @escaping @Sendable (String) -> Void = { _ in }) throws -> Entry {
        let folder = self.folder(targetBytes: targetBytes, blobFraction: blobFraction, blobSize: blobSize, seed: seed)
        let database = folder.appendingPathComponent("Library.sqlite")
        let manifestURL = folder.appendingPathComponent("manifest.json")
        if let data = try? Data(contentsOf: manifestURL), let manifest = try? JSONDecoder().decode(Manifest.self, from: data),
           Self.matches(manifest, database) {
            return Entry(database: database, manifest: manifest, reused: true)
        }
        try? FileManager.default.removeItem(at: folder)
        let partial = root.appendingPathComponent(folder.lastPathComponent + ".partial", isDirectory: true)
        try? FileManager.default.removeItem(at: partial)
        try FileManager.default.createDirectory(at: partial, withIntermediateDirectories: true)
        let partialDatabase = partial.appendingPathComponent("Library.sqlite")
        var manifest = try Self.generate(at: partialDatabase, targetBytes: targetBytes, blobFraction: blobFraction,
                                         blobSize: blobSize, seed: seed, progress: progress)
        manifest.targetBytes = targetBytes
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(manifest).write(to: partial.appendingPathComponent("manifest.json"))
        try FileManager.default.moveItem(at: partial, to: folder)
        return Entry(database: database, manifest: manifest, reused: false)
    }

    /// A cached store is valid while its database and external files are the ones the manifest recorded.
    static func matches(_ manifest: Manifest, _ database: URL) -> Bool {
        let files = StoreFiles(database)
        guard files.exists, StoreFiles.size(database) == manifest.databaseBytes else { return false }
        let external = files.externalFileNames()
        return external.count == manifest.externalFiles && StoreSize.of(database) >= manifest.actualBytes
    }

    /// Generates until the store's total on-disk size reaches `targetBytes` (`StoreGenerator`'s sized
    /// generation, the one `lifeboat generate --size` runs).
    static func generate(at database: URL, targetBytes: Int64, blobFraction: Double, blobSize: Int, seed: UInt64,
                         progress: @escaping @Sendable (String) -> Void) throws -> Manifest {
        let generator = StoreGenerator(objects: 0, blobFraction: blobFraction, blobSize: blobSize, seed: seed)
        let label = ByteCount.label(targetBytes)
        let made = try generator.generate(at: database, targetBytes: targetBytes) { bytes in
            progress("generating \(label) store: \(ByteCount.format(bytes)) so far")
        }
        let files = StoreFiles(database)
        return Manifest(targetBytes: targetBytes, blobFraction: blobFraction, blobSize: blobSize, seed: seed, actualBytes: made.bytes,
                        databaseBytes: StoreFiles.size(database) ?? 0, externalFiles: files.externalFileNames().count,
                        objects: made.summary.total, attachments: made.summary.attachments)
    }
}
