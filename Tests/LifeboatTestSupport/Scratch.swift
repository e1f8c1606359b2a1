import Foundation
import SeededRandomness
import StoreModel

/// A fresh directory per test, removed when the test ends, so tests run in parallel without sharing files.
public final class Scratch: @unchecked Sendable {
    public let url: URL

    public init(_ label: String = "test") throws {
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("lifeboat-\(label)-\(UUID().uuidString.prefix(8))", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    public func path(_ relative: String) -> URL { url.appendingPathComponent(relative) }

    /// A generated store at `relative`, closed again.
    @discardableResult
    public func store(_ relative: String = "live/Library.sqlite", objects: Int = 60, blobFraction: Double = 0,
                      blobSize: Int = 128 * 1024, seed: UInt64 = 1) throws -> URL {
        let url = path(relative)
        try StoreGenerator(objects: objects, blobFraction: blobFraction, blobSize: blobSize, seed: seed).generate(at: url)
        return url
    }
}

/// An app that keeps its store open with automatic checkpoints off, so what it commits stays in the -wal:
/// the state in which plain file copies lose data.
public final class OpenApp {
    public let store: PersistentStore

    public init(_ url: URL, model: ManagedObjectModel = .library) throws {
        store = try PersistentStore(at: url, model: model)
        try store.withConnection { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
    }

    /// Inserts `count` notes in one save each and returns their identities.
    @discardableResult
    public func insertNotes(_ count: Int, attachmentSize: Int? = nil, seed: UInt64 = 42) throws -> [UUID] {
        // A stream of its own: the generator draws identities from the plain seed, and a test that passes the
        // same seed to both must not get the generator's identities back (a duplicate of the test's making).
        var random = SeededRandom(seed: seed ^ 0x6F70_656E_2D61_7070)
        var ids: [UUID] = []
        for serial in 0..<count {
            var note = StoreGenerator.note(serial: 10_000 + serial, random: &random, folders: [], tags: [])
            if let attachmentSize { note.attributes["attachment"] = .binary(Data(random.bytes(attachmentSize))) }
            try store.save { try $0.insert(note) }
            ids.append(note.id)
        }
        return ids
    }

    public func close() throws { try store.close() }
}
