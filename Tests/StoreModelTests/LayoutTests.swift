import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// The on-disk layout is Core Data's, table by table and byte by byte where Core Data fixes the bytes.
@Suite struct LayoutTests {
    @Test func newStoreHasCoreDataTablesAndColumns() throws {
        let scratch = try Scratch("layout")
        let url = try scratch.store(objects: 10)
        let queue = try PlainConnection.open(url, readOnly: true)
        defer { try? queue.close() }
        try queue.read { db in
            for table in ["Z_PRIMARYKEY", "Z_METADATA", "Z_MODELCACHE", "ZNOTE", "ZFOLDER", "ZTAG"] {
                #expect(try db.tableExists(table), "missing \(table)")
            }
            let noteColumns = try db.columns(in: "ZNOTE").map(\.name)
            #expect(Array(noteColumns.prefix(3)) == ["Z_PK", "Z_ENT", "Z_OPT"])
            #expect(noteColumns.contains("ZFOLDER") && noteColumns.contains("ZATTACHMENT") && noteColumns.contains("ZLIFEBOATID"))
            // Folder=1, Note=2, Tag=3 in name order; Note.tags <-> Tag.notes is join table Z_2TAGS.
            let names = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT").map { $0["Z_NAME"] as String }
            #expect(names == ["Folder", "Note", "Tag"])
            #expect(try db.tableExists("Z_2TAGS"))
            #expect(try db.columns(in: "Z_2TAGS").map(\.name) == ["Z_2NOTES", "Z_3TAGS"])
            let indexes = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
            #expect(indexes.contains("ZNOTE_ZFOLDER_INDEX"))
            #expect(try String.fetchOne(db, sql: "PRAGMA journal_mode") == "wal")
        }
    }

    @Test func metadataIsABinaryPlistWithCoreDataKeys() throws {
        let scratch = try Scratch("metadata")
        let url = try scratch.store(objects: 3)
        let queue = try PlainConnection.open(url, readOnly: true)
        defer { try? queue.close() }
        let (uuid, plist) = try queue.read { db -> (String, Data) in
            let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1")!
            return (row["Z_UUID"], row["Z_PLIST"])
        }
        #expect(plist.starts(with: Data("bplist00".utf8)))
        let object = try PropertyListSerialization.propertyList(from: plist, format: nil) as? [String: Any]
        #expect(object?["NSStoreType"] as? String == "SQLite")
        // As in real stores: the store UUID is the Z_UUID column, not a plist key.
        #expect(object?["NSStoreUUID"] == nil)
        #expect(UUID(uuidString: uuid) != nil)
        let hashes = object?["NSStoreModelVersionHashes"] as? [String: Any]
        #expect((hashes?["Note"] as? Data)?.count == 32)
        #expect((object?["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue == 3)
        #expect(object?["_NSAutoVacuumLevel"] as? String == "2")
    }

    @Test func externalDataMarkersFollowCoreData() throws {
        let name = UUID().uuidString
        let external = ExternalDataReference.external(fileName: name).encoded
        #expect(external.first == 0x02 && external.last == 0 && external.count == 38)
        #expect(ExternalDataReference(encoded: external) == .external(fileName: name))
        let inline = ExternalDataReference.inline(Data([9, 8, 7])).encoded
        #expect(inline == Data([0x01, 9, 8, 7]))
        #expect(ExternalDataReference(encoded: Data([0x07, 1])) == nil)
    }

    @Test func largeValuesGoToTheSupportFolderSmallOnesStayInline() throws {
        let scratch = try Scratch("external")
        let url = scratch.path("s/Library.sqlite")
        var options = StoreOptions()
        options.externalStorageThreshold = 1000
        options.externalDataGracePeriod = 0
        let store = try PersistentStore(at: url, model: .library, options: options)
        let big = ManagedObject(entity: "Note", attributes: ["attachment": .binary(Data(repeating: 7, count: 5000))])
        let small = ManagedObject(entity: "Note", attributes: ["attachment": .binary(Data(repeating: 3, count: 10))])
        try store.save { try $0.insert(big); try $0.insert(small) }
        let files = StoreFiles(url)
        #expect(files.supportFolder.lastPathComponent == ".Library_SUPPORT")
        #expect(files.externalFileNames().count == 1)
        #expect(try store.object("Note", id: big.id)?.attributes["attachment"] == .binary(Data(repeating: 7, count: 5000)))
        #expect(try store.object("Note", id: small.id)?.attributes["attachment"] == .binary(Data(repeating: 3, count: 10)))
        // Replacing the value removes the old file after the commit (no grace period here); deleting the object
        // removes the new one.
        try store.save { try $0.update(ManagedObject(entity: "Note", id: big.id, attributes: ["attachment": .binary(Data(repeating: 1, count: 6000))])) }
        #expect(files.externalFileNames().count == 1)
        try store.save { try $0.delete(entity: "Note", id: big.id) }
        #expect(files.externalFileNames().isEmpty)
        try store.close()
    }

    @Test func savesBumpZOptAndZMax() throws {
        let scratch = try Scratch("zopt")
        let store = try PersistentStore(at: scratch.path("s/Library.sqlite"), model: .library)
        let folder = ManagedObject(entity: "Folder", attributes: ["name": .string("a")])
        try store.save { try $0.insert(folder) }
        try store.save { try $0.update(ManagedObject(entity: "Folder", id: folder.id, attributes: ["name": .string("b")])) }
        try store.save { try $0.update(ManagedObject(entity: "Folder", id: folder.id, attributes: ["name": .string("c")])) }
        let (opt, max) = try store.read { db in
            (try Int.fetchOne(db, sql: "SELECT Z_OPT FROM ZFOLDER")!, try Int.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_NAME = 'Folder'")!)
        }
        #expect(opt == 3)
        #expect(max == 1)
        try store.close()
    }

    @Test func relationshipsRoundTripByIdentity() throws {
        let scratch = try Scratch("relationships")
        let store = try PersistentStore(at: scratch.path("s/Library.sqlite"), model: .library)
        let folder = ManagedObject(entity: "Folder", attributes: ["name": .string("inbox")])
        let tags = [ManagedObject(entity: "Tag", attributes: ["name": .string("x")]), ManagedObject(entity: "Tag", attributes: ["name": .string("y")])]
        let note = ManagedObject(entity: "Note", attributes: ["title": .string("t"), "created": .date(Date(timeIntervalSince1970: 978_307_200 + 60))],
                                 toOne: ["folder": folder.id], toMany: ["tags": tags.map(\.id)])
        try store.save { context in
            try context.insert(folder)
            for tag in tags { try context.insert(tag) }
            try context.insert(note)
        }
        let loaded = try #require(try store.object("Note", id: note.id))
        #expect(loaded == note)
        #expect(loaded.attributes["created"] == .date(60))
        #expect(try store.object("Tag", id: tags[0].id)?.toMany["notes"] == [note.id])
        // Deleting the folder nullifies the note's to-one relationship.
        try store.save { try $0.delete(entity: "Folder", id: folder.id) }
        #expect(try store.object("Note", id: note.id)?.toOne["folder"] == nil)
        try store.close()
    }

    @Test func generatorIsDeterministicForASeed() throws {
        let scratch = try Scratch("seed")
        let first = try scratch.store("a/Library.sqlite", objects: 40, blobFraction: 0.3, blobSize: 2000, seed: 9)
        let second = try scratch.store("b/Library.sqlite", objects: 40, blobFraction: 0.3, blobSize: 2000, seed: 9)
        let a = try PersistentStore(at: first, model: .library), b = try PersistentStore(at: second, model: .library)
        #expect(try a.allObjects() == b.allObjects())
        #expect(try a.allObjects().count == 40)
        try a.close(); try b.close()
    }
}
