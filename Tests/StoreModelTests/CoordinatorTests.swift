import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// The coordinator's operations behave as documented, pitfalls included.
@Suite struct CoordinatorTests {
    @Test func migrateIntoAnExistingStoreDuplicatesEveryObject() throws {
        let scratch = try Scratch("migrate-dup")
        let live = try scratch.store(objects: 30, blobFraction: 0.2, blobSize: 150_000)
        let backup = scratch.path("backup/Library.sqlite")
        for round in 1...2 {
            let coordinator = PersistentStoreCoordinator(model: .library)
            let source = try coordinator.addStore(at: live)
            let (copy, report) = try coordinator.migrate(source, to: backup)
            #expect(report.objects == 30)
            #expect(report.objectsAlreadyInDestination == (round == 1 ? 0 : 30))
            #expect(coordinator.store(at: live) == nil, "migrate removes the source from the coordinator")
            #expect(try copy.allObjects().count == 30 * round)
            try coordinator.remove(copy)
        }
        let store = try PersistentStore(at: backup, model: .library)
        let ids = try store.allObjects().map(\.id)
        #expect(Set(ids).count == 30)
        try store.close()
    }

    @Test func replaceOverwritesInsteadOfAppending() throws {
        let scratch = try Scratch("replace")
        let live = try scratch.store(objects: 30, blobFraction: 0.2, blobSize: 150_000)
        let backup = scratch.path("backup/Library.sqlite")
        let coordinator = PersistentStoreCoordinator(model: .library)
        for _ in 1...2 { try coordinator.replace(at: backup, from: live) }
        let a = try PersistentStore(at: live, model: .library), b = try PersistentStore(at: backup, model: .library)
        #expect(try a.allObjects() == b.allObjects())
        #expect(StoreFiles(backup).externalFileNames() == StoreFiles(live).externalFileNames())
        try a.close(); try b.close()
    }

    @Test func replaceUnloadsALoadedDestinationAndCopiesIntoEmptiness() throws {
        let scratch = try Scratch("replace-unload")
        let live = try scratch.store(objects: 12)
        let other = try scratch.store("other/Library.sqlite", objects: 5, seed: 3)
        let coordinator = PersistentStoreCoordinator(model: .library)
        try coordinator.addStore(at: other)
        try coordinator.replace(at: other, from: live)
        #expect(coordinator.store(at: other) == nil)
        let fresh = scratch.path("empty/sub/Library.sqlite")
        try coordinator.replace(at: fresh, from: live)
        let copy = try PersistentStore(at: fresh, model: .library)
        #expect(try copy.allObjects().count == 12)
        try copy.close()
    }

    @Test func replaceIncludesCommittedWALContent() throws {
        let scratch = try Scratch("replace-wal")
        let live = try scratch.store(objects: 10)
        let app = try OpenApp(live)
        let ids = try app.insertNotes(5)
        #expect((StoreFiles.size(StoreFiles(live).wal) ?? 0) > 0)
        let backup = scratch.path("b/Library.sqlite")
        try PersistentStoreCoordinator(model: .library).replace(at: backup, from: live)
        try app.close()
        let copy = try PersistentStore(at: backup, model: .library)
        for id in ids { #expect(try copy.object("Note", id: id) != nil) }
        try copy.close()
    }

    @Test func destroyTruncatesScramblesAndRemovesTheSupportFolder() throws {
        let scratch = try Scratch("destroy")
        let live = try scratch.store(objects: 20, blobFraction: 0.3, blobSize: 120_000)
        let app = try OpenApp(live)
        try app.insertNotes(2)
        let files = StoreFiles(live)
        #expect(!files.externalFileNames().isEmpty)
        let coordinator = PersistentStoreCoordinator(model: .library)
        try coordinator.addStore(at: live)
        // Another connection (the app) keeps the -shm; a stale rollback journal lies beside the store.
        try Data("stale journal".utf8).write(to: files.journal)
        let shmHeader = try Data(contentsOf: files.shm).prefix(16)
        try coordinator.destroy(at: live)
        let shm = try Data(contentsOf: files.shm)
        try? app.close()
        #expect(coordinator.stores.isEmpty)
        #expect(FileManager.default.fileExists(atPath: files.database.path), "truncated, not unlinked")
        #expect(StoreFiles.size(files.database) == 0)
        #expect((StoreFiles.size(files.wal) ?? 0) == 0)
        #expect(!FileManager.default.fileExists(atPath: files.journal.path), "a rollback journal is unlinked")
        #expect(shm.count >= 16 && shm.prefix(16) != shmHeader, "the -shm header is scrambled in place")
        #expect(!FileManager.default.fileExists(atPath: files.supportFolder.path), "the support folder goes too")
        // An emptied store opens as a new, empty store.
        let reopened = try PersistentStore(at: live, model: .library)
        #expect(try reopened.allObjects().isEmpty)
        try reopened.close()
    }

    @Test func incompatibleModelIsTheTyped134100Error() throws {
        let scratch = try Scratch("134100")
        let live = try scratch.store(objects: 8)
        #expect {
            try PersistentStore(at: live, model: .libraryV2)
        } throws: { error in
            guard case StoreError.incompatibleModel(_, let differences) = error else { return false }
            return (error as? StoreError)?.code == 134100 && differences.contains("entity Note changed")
        }
        // The store was left as it was: still openable with its own model, nothing lost.
        let store = try PersistentStore(at: live, model: .library)
        #expect(try store.allObjects().count == 8)
        try store.close()
    }

    @Test func lightweightMigrationKeepsEveryObject() throws {
        let scratch = try Scratch("lightweight")
        let live = try scratch.store(objects: 50, blobFraction: 0.2, blobSize: 110_000)
        let old = try PersistentStore(at: live, model: .library)
        let before = try old.allObjects()
        try old.close()
        let migrated = try PersistentStore(at: live, model: .libraryV2, options: .lightweightMigration)
        let after = try migrated.allObjects()
        #expect(after == before)
        #expect(migrated.metadata.versionHashes == ManagedObjectModel.libraryV2.versionHashes)
        let reminder = ManagedObject(entity: "Reminder", attributes: ["text": .string("new entity works")])
        try migrated.save { try $0.insert(reminder) }
        let note = try #require(before.first { $0.entity == "Note" })
        try migrated.save { try $0.update(ManagedObject(entity: "Note", id: note.id, attributes: ["pinned": .bool(true)])) }
        #expect(try migrated.object("Note", id: note.id)?.attributes["pinned"] == .bool(true))
        try migrated.close()
        // Reopening with the new model needs no migration any more.
        let reopened = try PersistentStore(at: live, model: .libraryV2)
        #expect(try reopened.count("Reminder") == 1)
        try reopened.close()
    }

    @Test func changedTypeHasNoInferredMapping() throws {
        let scratch = try Scratch("no-mapping")
        let live = try scratch.store(objects: 5)
        var model = ManagedObjectModel.library
        let index = model.entities.firstIndex { $0.name == "Note" }!
        let attribute = model.entities[index].attributes.firstIndex { $0.name == "views" }!
        model.entities[index].attributes[attribute].type = .string
        #expect(throws: StoreError.self) { try PersistentStore(at: live, model: model, options: .lightweightMigration) }
        let store = try PersistentStore(at: live, model: .library)
        #expect(try store.count("Note") > 0)
        try store.close()
    }

    @Test func garbageFileIsNotACoreDataStore() throws {
        let scratch = try Scratch("garbage")
        let url = scratch.path("Library.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: url)
        #expect {
            try PersistentStore(at: url, model: .library)
        } throws: { error in
            if case StoreError.notACoreDataStore = error { return true }
            return false
        }
    }
}
