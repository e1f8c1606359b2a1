import Foundation
import SeededRandomness
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// External data as Core Data handles it (docs/fidelity.md): interim file renamed before the commit, obsolete
/// files gone when `save()` returns, a missing file read as nil, and a later save writing that nil back.
@Suite struct ExternalDataFidelityTests {
    static func attachment(_ byte: UInt8) -> AttributeValue { .binary(Data(repeating: byte, count: 150_000)) }

    @Test func obsoleteFilesAreGoneWhenTheSaveReturnsAndNoInterimFileStays() throws {
        let scratch = try Scratch("ext-delete")
        let live = try scratch.store(objects: 4)
        let store = try PersistentStore(at: live, model: .library)
        defer { try? store.close() }
        #expect(store.options.externalDataGracePeriod == 0 && !store.options.syncExternalFiles)
        var random = SeededRandom(seed: 7)
        var note = StoreGenerator.note(serial: 9001, random: &random, folders: [], tags: [])
        note.attributes["attachment"] = Self.attachment(1)
        try store.save { try $0.insert(note) }
        let first = StoreFiles(live).externalFileNames()
        #expect(first.count == 1 && !first[0].hasSuffix(".interim"))
        var edit = ManagedObject(entity: "Note", id: note.id)
        edit.attributes["attachment"] = Self.attachment(2)
        try store.save { try $0.update(edit) }
        let second = StoreFiles(live).externalFileNames()
        #expect(second.count == 1 && second != first, "the replaced file is deleted inside the save that replaced it")
        let entries = try FileManager.default.contentsOfDirectory(atPath: StoreFiles(live).externalDataFolder.path)
        #expect(!entries.contains { $0.hasSuffix(".interim") })
        try store.save { try $0.delete(entity: "Note", id: note.id) }
        #expect(StoreFiles(live).externalFileNames().isEmpty)
    }

    @Test func aKnobKeepsObsoleteFilesForAGracePeriod() throws {
        let scratch = try Scratch("ext-grace")
        let live = try scratch.store(objects: 4)
        var options = StoreOptions()
        options.externalDataGracePeriod = 60
        let store = try PersistentStore(at: live, model: .library, options: options)
        var random = SeededRandom(seed: 7)
        var note = StoreGenerator.note(serial: 9002, random: &random, folders: [], tags: [])
        note.attributes["attachment"] = Self.attachment(3)
        try store.save { try $0.insert(note) }
        try store.save { try $0.delete(entity: "Note", id: note.id) }
        #expect(StoreFiles(live).externalFileNames().count == 1)
        try store.close()
    }

    @Test func aMissingFileReadsAsNilAndALaterSaveWritesTheNilBack() throws {
        let scratch = try Scratch("ext-missing")
        let live = try scratch.store(objects: 4)
        let store = try PersistentStore(at: live, model: .library)
        defer { try? store.close() }
        var random = SeededRandom(seed: 7)
        var note = StoreGenerator.note(serial: 9003, random: &random, folders: [], tags: [])
        note.attributes["attachment"] = Self.attachment(4)
        try store.save { try $0.insert(note) }
        let name = try #require(StoreFiles(live).externalFileNames().first)
        try FileManager.default.removeItem(at: StoreFiles(live).externalFile(name))
        let read = try #require(try store.object("Note", id: note.id))
        #expect(read.attributes["attachment"] == nil, "no error: the attribute is nil")
        #expect(read.attributes["title"] == note.attributes["title"])
        // The row still names the file until a save writes the nil an app holds.
        let column = { try store.read { try Data.fetchOne($0, sql: "SELECT ZATTACHMENT FROM ZNOTE ORDER BY Z_PK DESC LIMIT 1") } }
        #expect(try column() != nil)
        var edit = ManagedObject(entity: "Note", id: note.id)
        edit.attributes["attachment"] = AttributeValue.null
        try store.save { try $0.update(edit) }
        #expect(try column() == nil)
        // migrate carries the nil too (it reads every object the same way).
        let coordinator = PersistentStoreCoordinator(model: .library)
        let source = try coordinator.addStore(at: scratch.store("other/Library.sqlite", objects: 3, blobFraction: 1, blobSize: 150_000))
        for file in StoreFiles(source.files.database).externalFileNames() { try FileManager.default.removeItem(at: source.files.externalFile(file)) }
        let (copy, report) = try coordinator.migrate(source, to: scratch.path("copy/Library.sqlite"))
        #expect(report.objects > 0)
        #expect(try copy.objects("Note").allSatisfy { $0.attributes["attachment"] == nil })
        #expect(StoreFiles(copy.files.database).externalFileNames().isEmpty)
        try coordinator.remove(copy)
    }
}
