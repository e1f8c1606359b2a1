import Foundation
import SeededRandomness

/// Builds a store of the library model with a given number of objects, a share of notes with an attachment,
/// and attachment size, all drawn from a seed (the same seed gives the same objects, identities included).
public struct StoreGenerator: Sendable {
    public var objects: Int
    /// Share of notes that carry an attachment (0...1).
    public var blobFraction: Double
    /// Attachment size in bytes; with the default threshold (100 KiB) larger ones are stored externally.
    public var blobSize: Int
    public var seed: UInt64
    public var batchSize = 1000
    /// Give the store Core Data's persistent-history tables; every save then records into them.
    public var history = false
    /// Use the library model with its `Item` hierarchy (entity inheritance) and generate items of every entity in it.
    public var inheritance = false
    /// Give the store `NSPersistentCloudKitContainer`'s mirroring tables (and history, which it switches on):
    /// objects then have no record metadata until a mirror exports them (`CloudKitMirroring`).
    public var cloudKit = false
    /// Bytes of free pages added to the file before any object is saved (`FreePages`): the objects then sit at
    /// the end of a file this much larger, past SQLite's lock-byte page once it passes 1 GiB.
    public var freeSpace = 0
    /// Whether each external attachment file is fsynced as it is written; a sized generation makes them all
    /// durable at once at its end instead (`generate(at:targetBytes:)`).
    var syncEachAttachment = true
    /// Called after each saved batch of notes with (notes saved, notes in all), for a progress line.
    public var progress: (@Sendable (_ done: Int, _ total: Int) -> Void)?

    public init(objects: Int, blobFraction: Double = 0.1, blobSize: Int = 128 * 1024, seed: UInt64 = 1) {
        self.objects = objects
        self.blobFraction = blobFraction
        self.blobSize = blobSize
        self.seed = seed
    }

    public struct Summary: Sendable, Codable {
        public var folders = 0, tags = 0, notes = 0, attachments = 0, items = 0
        public var total: Int { folders + tags + notes + items }
    }

    /// Generates into the store at `url` (created, or added to when it exists).
    @discardableResult
    public func generate(at url: URL, model: ManagedObjectModel = .library, options: StoreOptions = StoreOptions()) throws -> Summary {
        let model = inheritance && !model.hasInheritance ? ManagedObjectModel.libraryWithInheritance : model
        let coordinator = PersistentStoreCoordinator(model: model)
        // The generated store stands for an app's past: its attachment files have long been written back by the
        // OS, so they are made durable here (Core Data itself does not fsync them; docs/fidelity.md).
        var options = options
        options.syncExternalFiles = syncEachAttachment
        var store = try coordinator.addStore(at: url, options: options)
        if freeSpace > 0 {
            // Closing the only connection checkpoints the schema into the main file and removes the -wal.
            try coordinator.remove(store)
            try FreePages.add(bytes: freeSpace, to: url)
            store = try coordinator.addStore(at: url, options: options)
        }
        defer { try? coordinator.remove(store) }
        if history { try store.withConnection { try PersistentHistory.enable($0) } }
        if cloudKit { try CloudKitMirror.prepare(store) }
        var random = SeededRandom(seed: seed)
        var summary = Summary()
        summary.folders = objects <= 0 ? 0 : max(1, objects / 50)
        summary.tags = objects <= 2 ? 0 : max(1, objects / 100)
        summary.items = inheritance ? objects / 10 : 0
        summary.notes = max(0, objects - summary.folders - summary.tags - summary.items)
        let folders = (0..<summary.folders).map { _ in random.uuid() }
        let tags = (0..<summary.tags).map { _ in random.uuid() }
        try store.save { context in
            for (index, id) in folders.enumerated() {
                try context.insert(ManagedObject(entity: "Folder", id: id, attributes: [
                    "name": .string("Folder \(index)"), "created": .date(Double(index) * 3600),
                ]))
            }
            for (index, id) in tags.enumerated() {
                try context.insert(ManagedObject(entity: "Tag", id: id, attributes: ["name": .string("tag-\(index)")]))
            }
        }
        if summary.items > 0 {
            let items = Self.items(summary.items, model: model, random: &random)
            try store.save { context in for item in items { try context.insert(item) } }
        }
        var remaining = summary.notes
        var serial = 0
        while remaining > 0 {
            let batch = min(batchSize, remaining)
            var notes: [ManagedObject] = []
            for _ in 0..<batch {
                var note = Self.note(serial: serial, random: &random, folders: folders, tags: tags)
                if Double(random.next() % 1_000_000) / 1_000_000 < blobFraction {
                    note.attributes["attachment"] = .binary(Data(random.bytes(blobSize)))
                    summary.attachments += 1
                }
                notes.append(note)
                serial += 1
            }
            try store.save { context in for note in notes { try context.insert(note) } }
            remaining -= batch
            progress?(summary.notes - remaining, summary.notes)
        }
        return summary
    }

    /// One note with seeded content and links (no attachment).
    public static func note(serial: Int, random: inout SeededRandom, folders: [UUID], tags: [UUID]) -> ManagedObject {
        let words = ["harbour", "keel", "mast", "anchor", "tide", "rope", "sail", "deck", "hull", "compass"]
        let body = (0..<24).map { _ in words[Int(random.next() % UInt64(words.count))] }.joined(separator: " ")
        var note = ManagedObject(entity: "Note", id: random.uuid(), attributes: [
            "title": .string("Note \(serial)"),
            "body": .string(body),
            "created": .date(Double(serial) * 60 + 0.5),
            "rating": .double(Double(random.next() % 500) / 100),
            "views": .integer(Int64(random.next() % 10_000)),
        ])
        if !folders.isEmpty { note.toOne["folder"] = folders[Int(random.next() % UInt64(folders.count))] }
        if !tags.isEmpty {
            let count = Int(random.next() % 3)
            note.toMany["tags"] = Array(Set((0..<count).map { _ in tags[Int(random.next() % UInt64(tags.count))] }))
                .sorted { $0.uuidString < $1.uuidString }
        }
        return note
    }
}
