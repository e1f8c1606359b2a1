import Foundation
import GRDB
import LifeboatCLI
import LifeboatTestSupport
import PropertyBased
import StoreModel
import Testing

/// `lifeboat check` on damaged real stores: whatever is wrong, it answers 0, 1 or 2 with a message, within a
/// time bound, and never changes its input.
@Suite struct DamagedStoreTests {
    /// What a damage does to a copy of a store.
    enum Damage: CaseIterable {
        case flipBytes, truncate, maxAsText, superAsText, nameAsBlob, uuidAsBlob, plistAsInteger, keyAsText, entityListedTwice

        func apply(to store: URL, seed: Int) throws {
            switch self {
            case .flipBytes:
                var data = try Data(contentsOf: store)
                for index in 0..<8 where !data.isEmpty { data[(seed &* 7919 &+ index &* 104_729) % data.count] ^= 0xA5 }
                try data.write(to: store)
            case .truncate:
                let data = try Data(contentsOf: store)
                try data.prefix(seed % max(data.count, 1)).write(to: store)
            default:
                try Self.sql(store, statements: sqlStatements)
            }
        }

        var sqlStatements: [String] {
            switch self {
            case .maxAsText: ["UPDATE Z_PRIMARYKEY SET Z_MAX = 'many' WHERE Z_ENT = (SELECT min(Z_ENT) FROM Z_PRIMARYKEY)"]
            case .superAsText: ["UPDATE Z_PRIMARYKEY SET Z_SUPER = 'parent' WHERE Z_ENT = (SELECT max(Z_ENT) FROM Z_PRIMARYKEY)"]
            case .nameAsBlob: ["UPDATE Z_PRIMARYKEY SET Z_NAME = x'00ff10' WHERE Z_ENT = (SELECT min(Z_ENT) FROM Z_PRIMARYKEY)"]
            case .uuidAsBlob: ["UPDATE Z_METADATA SET Z_UUID = x'deadbeef'"]
            case .plistAsInteger: ["UPDATE Z_METADATA SET Z_PLIST = 42"]
            case .keyAsText:
                // Z_PK of the first entity table as text: rebuild the table without its INTEGER PRIMARY KEY.
                ["ALTER TABLE \"$T\" RENAME TO lifeboat_old", "CREATE TABLE \"$T\" AS SELECT * FROM lifeboat_old",
                 "UPDATE \"$T\" SET Z_PK = 'key-' || Z_PK", "DROP TABLE lifeboat_old"]
            case .entityListedTwice:
                ["INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) SELECT max(Z_ENT) + 1, (SELECT Z_NAME FROM Z_PRIMARYKEY ORDER BY Z_ENT LIMIT 1), 0, 3 FROM Z_PRIMARYKEY"]
            default: []
            }
        }

        static func sql(_ store: URL, statements: [String]) throws {
            let queue = try DatabaseQueue(path: store.path)
            try queue.write { db in
                let table = try String.fetchOne(db, sql: "SELECT 'Z' || upper(Z_NAME) FROM Z_PRIMARYKEY WHERE Z_SUPER = 0 AND Z_ENT < 16000 ORDER BY Z_ENT LIMIT 1") ?? "ZX"
                for statement in statements { try db.execute(sql: statement.replacingOccurrences(of: "$T", with: table)) }
            }
            try queue.close()
        }
    }

    @Test func damagedStoresGetAnAnswerNeverACrash() async throws {
        let fixtures = RealStoreFixtures.names
        await propertyCheck(count: 24, input: Gen.int(in: 0...(fixtures.count - 1)), Gen.int(in: 0...(Damage.allCases.count - 1)),
                            Gen.int(in: 1...1_000_000)) { fixture, damage, seed in
            try await Self.checkAnswers(fixtures[fixture], Damage.allCases[damage], seed: seed)
        }
    }

    /// Every damage once on the store with inheritance and history tables.
    @Test(arguments: Damage.allCases)
    func eachDamageOnTheNotesStore(_ damage: Damage) async throws {
        try await Self.checkAnswers("notes-monterey", damage, seed: 4242)
    }

    static func checkAnswers(_ fixture: String, _ damage: Damage, seed: Int) async throws {
        let scratch = try Scratch("damaged")
        let store = try RealStoreFixtures.copy(fixture, into: scratch.path("store"))
        let pristine = try RealStoreFixtures.copy(fixture, into: scratch.path("pristine"))
        try damage.apply(to: store, seed: seed)
        // SQL damage may have checkpointed the -wal into the file: what counts is the folder as handed to check.
        let before = FolderDigest.of(store.deletingLastPathComponent())
        let started = Date()
        let code = await LifeboatMain.run(["check", store.path])
        let againstCode = await LifeboatMain.run(["check", pristine.path, "--against", store.path])
        #expect([0, 1, 2].contains(code), "\(fixture) \(damage) seed \(seed): exit \(code)")
        #expect([0, 1, 2].contains(againstCode), "\(fixture) \(damage): --against a damaged store exit \(againstCode)")
        #expect(Date().timeIntervalSince(started) < 60, "\(fixture) \(damage): check took too long")
        #expect(FolderDigest.of(store.deletingLastPathComponent()) == before, "\(fixture) \(damage): check changed its input")
        if [.maxAsText, .superAsText, .nameAsBlob, .uuidAsBlob, .plistAsInteger, .keyAsText, .entityListedTwice].contains(damage) {
            #expect(code == 1, "\(fixture) \(damage): a bookkeeping column of the wrong type is a finding (exit \(code))")
        }
    }

    /// Not a store at all: a directory, a text file, a FIFO, a device, an empty file. Exit 2, nothing opened
    /// that would block.
    @Test func whatIsNotAStoreIsExitTwo() async throws {
        let scratch = try Scratch("not-a-store")
        let directory = scratch.path("dir.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let text = scratch.path("text.sqlite")
        try Data("not a database\n".utf8).write(to: text)
        let fifo = scratch.path("fifo.sqlite")
        #expect(mkfifo(fifo.path, 0o644) == 0)
        let empty = scratch.path("empty.sqlite")
        try Data().write(to: empty)
        for path in [directory.path, text.path, fifo.path, "/dev/zero", empty.path] {
            #expect(await LifeboatMain.run(["check", path]) == 2, "\(path)")
            #expect(await LifeboatMain.run(["backup", "--strategy", "migrate", path, scratch.path("b").path]) == 2, "\(path)")
        }
    }

    /// A FIFO where an external data file should be: reported, never opened (opening it would block forever).
    @Test func fifoInExternalDataIsAFindingNotAHang() async throws {
        let scratch = try Scratch("fifo-external")
        let store = try scratch.store(objects: 30, blobFraction: 0.5, blobSize: 110_000)
        let files = StoreFiles(store)
        let victim = files.externalFile(try #require(files.externalFileNames().first))
        try FileManager.default.removeItem(at: victim)
        #expect(mkfifo(victim.path, 0o644) == 0)
        #expect(await LifeboatMain.run(["check", store.path]) == 1)
        #expect(await LifeboatMain.run(["check", store.path, "--against", store.path]) == 1)
        #expect(await LifeboatMain.run(["backup", "--strategy", "file-copy-full", store.path, scratch.path("b").path]) == 0)
    }

    /// A model cache of this harness that lists an entity twice is a finding, not a crash.
    @Test func modelCacheListingAnEntityTwiceIsAFinding() async throws {
        let scratch = try Scratch("cache-twice")
        let store = try scratch.store(objects: 10)
        let model = ManagedObjectModel.library
        var doubled = try ModelCache.encode(model)
        let json = try #require(String(data: doubled.dropFirst("LIFEBOAT-MODEL-1\n".utf8.count), encoding: .utf8))
        let first = try #require(json.range(of: "{\"attributes\""))
        let end = try #require(json.range(of: "},{\"attributes\"", range: first.upperBound..<json.endIndex))
        let entity = String(json[first.lowerBound..<json.index(after: end.lowerBound)])
        doubled = Data("LIFEBOAT-MODEL-1\n".utf8) + Data(json.replacingOccurrences(of: entity, with: entity + "," + entity, options: [], range: first.lowerBound..<end.upperBound).utf8)
        let cache = doubled
        let queue = try DatabaseQueue(path: store.path)
        try await queue.writeWithoutTransaction { try $0.execute(sql: "UPDATE Z_MODELCACHE SET Z_CONTENT = ?", arguments: [cache]) }
        try queue.close()
        #expect(ModelCache.decode(cache) == nil)
        #expect(await LifeboatMain.run(["check", store.path]) == 1)
    }
}
