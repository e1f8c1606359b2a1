import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// migrate behaves the same on every store (docs/fidelity.md): everything loaded first, new primary keys, a new
/// store UUID, no history or CloudKit rows, custom metadata keys with their types; an existing destination is
/// appended to unless `overwrite` is asked for.
@Suite struct MigrateFidelityTests {
    static func count(_ url: URL, _ sql: String) throws -> Int {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: sql) ?? -1 }
    }

    @Test func aUserStoreMigratesAsACleanCopyWithNewKeys() throws {
        let scratch = try Scratch("migrate-layout")
        let source = try RealStoreFixtures.copy("notes-monterey", into: scratch.path("live"))
        // An app's custom metadata key (an integer) and a CloudKit mirroring table with a row.
        let queue = try DatabaseQueue(path: source.path)
        try queue.write { db in
            let plist = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            var dictionary = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
            dictionary["AppSchemaRevision"] = 7
            dictionary["AppFlag"] = true
            try db.execute(sql: "UPDATE Z_METADATA SET Z_PLIST = ?", arguments: [try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)])
            try db.execute(sql: "CREATE TABLE ANSCKRECORDMETADATA (Z_PK INTEGER PRIMARY KEY, ZENTITYID INTEGER, ZENTITYPK INTEGER)")
            try db.execute(sql: "INSERT INTO ANSCKRECORDMETADATA VALUES (1, 5, 2)")
        }
        let sourceUUID = try queue.read { try String.fetchOne($0, sql: "SELECT Z_UUID FROM Z_METADATA") }
        try queue.close()
        let destination = scratch.path("backup/NoteStore.sqlite")
        let report = try LayoutMigration.migrate(from: source, to: destination)
        #expect(report.objects > 0 && report.bytesLoaded > 0)
        let copy = try DatabaseQueue(path: destination.path)
        defer { try? copy.close() }
        try copy.read { db in
            #expect(try String.fetchOne(db, sql: "SELECT Z_UUID FROM Z_METADATA") != sourceUUID)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ACHANGE") == 0, "no history rows")
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ATRANSACTION") == 0)
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ANSCKRECORDMETADATA") == 0, "no CloudKit rows")
            // The source's keys run 2...19 with gaps; the copy's are handed out anew from 1.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ZICCLOUDSYNCINGOBJECT") == 16)
            #expect(try Int64.fetchOne(db, sql: "SELECT min(Z_PK) FROM ZICCLOUDSYNCINGOBJECT") == 1)
            #expect(try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ZICCLOUDSYNCINGOBJECT") == 16)
            let plist = try #require(try Data.fetchOne(db, sql: "SELECT Z_PLIST FROM Z_METADATA"))
            let metadata = try StoreMetadata(plistData: plist, uuid: "x")
            #expect(metadata.otherKeys["AppSchemaRevision"] == .integer(7))
            #expect(metadata.otherKeys["AppFlag"] == .bool(true))
        }
        #expect(try StoreVerifierProxy.integrity(destination))
    }

    @Test func harnessMigrateCarriesCustomMetadataAndCanOverwrite() throws {
        let scratch = try Scratch("migrate-harness")
        let live = try scratch.store(objects: 12)
        let store = try PersistentStore(at: live, model: .library)
        var metadata = store.metadata
        metadata.otherKeys["AppSchemaRevision"] = .integer(3)
        metadata.otherKeys["AppLabel"] = .string("x")
        try store.setMetadata(metadata)
        try store.close()
        let backup = scratch.path("backup/Library.sqlite")
        for round in 1...2 {
            let coordinator = PersistentStoreCoordinator(model: .library)
            let source = try coordinator.addStore(at: live)
            let (copy, report) = try coordinator.migrate(source, to: backup, migrateOptions: MigrateOptions(existingDestination: .overwrite))
            #expect(report.objectsAlreadyInDestination == 0, "round \(round): overwrite empties the destination first")
            #expect(try copy.allObjects().count == 12)
            #expect(copy.metadata.storeUUID != metadata.storeUUID)
            try coordinator.remove(copy)
        }
        let reopened = try PersistentStore(at: backup, model: .library)
        #expect(reopened.metadata.otherKeys["AppSchemaRevision"] == .integer(3))
        #expect(reopened.metadata.otherKeys["AppLabel"] == .string("x"))
        try reopened.close()
    }

    @Test func versionHashesDigestMatchesWhatCoreDataWrote() throws {
        let scratch = try Scratch("digest")
        for name in ["notes-monterey", "bergier-v2.0.0"] {
            let url = try RealStoreFixtures.copy(name, into: scratch.path(name))
            let queue = try DatabaseQueue(path: url.path)
            let plist = try #require(try queue.read { try Data.fetchOne($0, sql: "SELECT Z_PLIST FROM Z_METADATA") })
            try queue.close()
            let dictionary = try #require(try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any])
            let metadata = try StoreMetadata(plistData: plist, uuid: "x")
            #expect(StoreMetadata.versionHashesDigest(metadata.versionHashes) == dictionary["NSStoreModelVersionHashesDigest"] as? String, "\(name)")
            // Rewriting keeps the other keys with their types and writes the digest.
            let again = try StoreMetadata(plistData: try metadata.plistData(), uuid: "x")
            #expect(again == metadata)
        }
    }
}

/// `PRAGMA integrity_check` of a store file, read-only.
enum StoreVerifierProxy {
    static func integrity(_ url: URL) throws -> Bool {
        var configuration = Configuration()
        configuration.readonly = true
        let queue = try DatabaseQueue(path: url.path, configuration: configuration)
        defer { try? queue.close() }
        return try queue.read { try String.fetchOne($0, sql: "PRAGMA integrity_check") } == "ok"
    }
}
