import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// Lightweight migration reports Core Data's codes (docs/fidelity.md): 134100 only with the options off, 134140
/// for no inferable mapping, 134130 for no source model, 134110 for a new required attribute with no default
/// over existing rows; with a default, or over an empty table, it migrates.
@Suite struct LightweightErrorTests {
    static func withRequired(_ name: String, default value: AttributeValue?) -> ManagedObjectModel {
        var model = ManagedObjectModel.library
        let index = model.entities.firstIndex { $0.name == "Note" }!
        model.entities[index].attributes.append(AttributeDescription(name, .integer64, optional: false, defaultValue: value))
        return model
    }

    static func code(_ body: () throws -> Void) -> Int? {
        do { try body(); return nil } catch let error as StoreError { return error.code } catch { return -1 }
    }

    @Test func eachFailureHasItsCodeAndLeavesTheStore() throws {
        let scratch = try Scratch("lightweight-codes")
        let live = try scratch.store(objects: 6)
        let required = Self.withRequired("rank", default: nil)
        #expect(Self.code { _ = try PersistentStore(at: live, model: required) } == 134100, "options off")
        #expect(Self.code { _ = try PersistentStore(at: live, model: required, options: .lightweightMigration) } == 134110)
        var changed = ManagedObjectModel.library
        let index = changed.entities.firstIndex { $0.name == "Note" }!
        let views = changed.entities[index].attributes.firstIndex { $0.name == "views" }!
        changed.entities[index].attributes[views].type = .string
        #expect(Self.code { _ = try PersistentStore(at: live, model: changed, options: .lightweightMigration) } == 134140)
        // The store is untouched by the failures.
        let store = try PersistentStore(at: live, model: .library)
        #expect(try store.count("Note") > 0)
        try store.close()
        // Without its model cache the source model cannot be found.
        let queue = try DatabaseQueue(path: live.path)
        try queue.write { try $0.execute(sql: "DELETE FROM Z_MODELCACHE") }
        try queue.close()
        #expect(Self.code { _ = try PersistentStore(at: live, model: .libraryV2, options: .lightweightMigration) } == 134130)
    }

    /// NSInferMappingModelAutomaticallyOption counts only with NSMigratePersistentStoresAutomaticallyOption on;
    /// migration on with inference off needs a mapping model the app ships (none here): 134140, after the source
    /// model is found (134130 first when it is not).
    @Test func theTwoOptionsApart() throws {
        let scratch = try Scratch("lightweight-options")
        let live = try scratch.store(objects: 6)
        var migrateOnly = StoreOptions()
        migrateOnly.migrateAutomatically = true
        var inferOnly = StoreOptions()
        inferOnly.inferMappingModel = true
        #expect(Self.code { _ = try PersistentStore(at: live, model: .libraryV2, options: inferOnly) } == 134100)
        #expect(Self.code { _ = try PersistentStore(at: live, model: .libraryV2, options: migrateOnly) } == 134140)
        #expect(Self.code { _ = try PersistentStore(at: live, model: .libraryTypeChange, options: .lightweightMigration) } == 134140)
        // None of them touched the store; both options migrate it.
        let migrated = try PersistentStore(at: live, model: .libraryV2, options: .lightweightMigration)
        #expect(try migrated.count("Note") > 0)
        try migrated.close()
        let bare = try scratch.store("bare/Library.sqlite", objects: 6)
        let queue = try DatabaseQueue(path: bare.path)
        try queue.write { try $0.execute(sql: "DELETE FROM Z_MODELCACHE") }
        try queue.close()
        #expect(Self.code { _ = try PersistentStore(at: bare, model: .libraryV2, options: migrateOnly) } == 134130)
    }

    @Test func aRequiredAttributeWithADefaultOrOverNoRowsMigrates() throws {
        let scratch = try Scratch("lightweight-default")
        let live = try scratch.store(objects: 6)
        let migrated = try PersistentStore(at: live, model: Self.withRequired("rank", default: .integer(3)), options: .lightweightMigration)
        let notes = try migrated.objects("Note")
        #expect(!notes.isEmpty && notes.allSatisfy { $0.attributes["rank"] == .integer(3) })
        try migrated.close()
        // An empty Note table takes a required attribute with no default.
        let empty = scratch.path("empty/Library.sqlite")
        try PersistentStore(at: empty, model: .library).close()
        let store = try PersistentStore(at: empty, model: Self.withRequired("rank", default: nil), options: .lightweightMigration)
        #expect(try store.count("Note") == 0)
        try store.close()
    }
}
