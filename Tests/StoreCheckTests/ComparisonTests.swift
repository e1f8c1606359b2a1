import Foundation
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `check --against` says exactly which objects, values, blobs and links differ.
@Suite struct ComparisonTests {
    @Test func equalCopiesCompareEqualEvenWithRenumberedKeys() throws {
        let scratch = try Scratch("equal")
        let live = try scratch.store(objects: 80, blobFraction: 0.3, blobSize: 110_000)
        let coordinator = PersistentStoreCoordinator(model: .library)
        // Migrate renumbers Z_PK and writes blobs under new file names: still logically equal.
        let (copy, _) = try coordinator.migrate(try coordinator.addStore(at: live), to: scratch.path("m/Library.sqlite"))
        try coordinator.remove(copy)
        let report = try StoreComparison.compare(scratch.path("m/Library.sqlite"), against: live)
        #expect(report.findings.isEmpty, "\(report.findings)")
    }

    @Test func namesChangedMissingAndExtraObjectsAndLinks() throws {
        let scratch = try Scratch("differences")
        let original = try scratch.store("a/Library.sqlite", objects: 40, blobFraction: 0.3, blobSize: 110_000)
        let changed = scratch.path("b/Library.sqlite")
        try PersistentStoreCoordinator(model: .library).replace(at: changed, from: original)
        let store = try PersistentStore(at: changed, model: .library)
        let notes = try store.objects("Note")
        let edited = notes[0], removed = notes[1]
        let withAttachment = try #require(notes.first { $0.attributes["attachment"] != nil })
        let tagged = try #require(notes.first { !($0.toMany["tags"] ?? []).isEmpty && $0.id != removed.id })
        let added = ManagedObject(entity: "Tag", attributes: ["name": .string("new")])
        try store.save { context in
            try context.update(ManagedObject(entity: "Note", id: edited.id, attributes: ["title": .string("changed title")]))
            try context.delete(entity: "Note", id: removed.id)
            try context.insert(added)
            try context.update(ManagedObject(entity: "Note", id: tagged.id, toMany: ["tags": []]))
            try context.update(ManagedObject(entity: "Note", id: withAttachment.id, attributes: ["attachment": .binary(Data(repeating: 1, count: 120_000))]))
        }
        try store.close()
        let report = try StoreComparison.compare(changed, against: original)
        #expect(report.findings.contains { $0.kind == .changedObject && $0.object == edited.id.uuidString && $0.message.contains("ZTITLE") })
        #expect(report.findings.contains { $0.kind == .changedObject && $0.object == withAttachment.id.uuidString && $0.message.contains("ZATTACHMENT") })
        #expect(report.findings.contains { $0.kind == .missingObject && $0.object == removed.id.uuidString })
        #expect(report.findings.contains { $0.kind == .extraObject && $0.object == added.id.uuidString })
        #expect(report.findings.contains { $0.kind == .missingLink && $0.object?.hasPrefix(tagged.id.uuidString) == true })
    }

    @Test func blobContentMattersNotItsFileName() throws {
        let scratch = try Scratch("blob-content")
        let original = try scratch.store("a/Library.sqlite", objects: 30, blobFraction: 0.5, blobSize: 110_000)
        let copy = scratch.path("b/Library.sqlite")
        try PersistentStoreCoordinator(model: .library).replace(at: copy, from: original)
        let files = StoreFiles(copy)
        let name = try #require(files.externalFileNames().first)
        var bytes = try Data(contentsOf: files.externalFile(name))
        bytes[100] ^= 0xFF
        try bytes.write(to: files.externalFile(name))
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.count(.changedObject) == 1)
        #expect(report.findings.first { $0.kind == .changedObject }?.message.contains("ZATTACHMENT") == true)
    }
}
