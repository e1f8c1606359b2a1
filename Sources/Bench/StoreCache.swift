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
                      progress: (String) -> Void = { _ in }) throws -> Entry {
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

    /// Generates until the store's total on-disk size reaches `targetBytes`: a first pass sized from a
    /// calibration of the per-object row cost, then small top-ups (each its own seed) until the target is met.
    static func generate(at database: URL, targetBytes: Int64, blobFraction: Double, blobSize: Int, seed: UInt64,
                         progress: (String) -> Void) throws -> Manifest {
        let rowBytes = try calibrateRowBytes()
        let perObject = rowBytes + blobFraction * Double(blobSize) * 0.97
        var objects = 0, attachments = 0, pass: UInt64 = 0
        var size = StoreSize.of(database)
        while size < targetBytes {
            let missing = Double(targetBytes - size)
            let share = pass == 0 ? 0.97 : 1.02
            let count = max(20, Int((missing * share / perObject).rounded(.up)))
            progress("generating \(ByteCount.label(targetBytes)) store: pass \(pass + 1), \(count) objects (\(ByteCount.format(size)) so far)")
            let summary = try StoreGenerator(objects: count, blobFraction: blobFraction, blobSize: blobSize, seed: seed &+ pass * 7919)
                .generate(at: database)
            objects += summary.total
            attachments += summary.attachments
            pass += 1
            size = StoreSize.of(database)
        }
        // Fold the -wal into the database now, so the first backup that checkpoints it does not change the
        // files the manifest describes (which would make the next run regenerate the store).
        let connection = try PlainConnection.open(database)
        try connection.writeWithoutTransaction { _ = try Row.fetchOne($0, sql: "PRAGMA wal_checkpoint(TRUNCATE)") }
        try connection.close()
        size = StoreSize.of(database)
        let files = StoreFiles(database)
        return Manifest(targetBytes: targetBytes, blobFraction: blobFraction, blobSize: blobSize, seed: seed, actualBytes: size,
                        databaseBytes: StoreFiles.size(database) ?? 0, externalFiles: files.externalFileNames().count,
                        objects: objects, attachments: attachments)
    }

    /// Bytes one object without an attachment costs on disk (row, indexes, join rows), measured on a small store.
    static func calibrateRowBytes() throws -> Double {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lifeboat-calibrate-\(UUID().uuidString.prefix(8))")
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = folder.appendingPathComponent("Library.sqlite")
        let count = 4000
        let empty = try { () throws -> Int64 in
            try StoreGenerator(objects: 0, blobFraction: 0, seed: 99).generate(at: database)
            return StoreSize.of(database)
        }()
        try StoreGenerator(objects: count, blobFraction: 0, seed: 98).generate(at: database)
        return max(64, Double(StoreSize.of(database) - empty) / Double(count))
    }
}
