import Foundation
import GRDB
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `check` reads a store from its layout: it finds what is wrong and names it.
@Suite struct VerifierTests {
    @Test func healthyGeneratedStorePasses() throws {
        let scratch = try Scratch("healthy")
        let url = try scratch.store(objects: 200, blobFraction: 0.2, blobSize: 110_000)
        let report = try StoreVerifier.verify(url)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.objectCounts["Note"] == 200 - 4 - 2)
        #expect(report.externalReferences > 0 && report.externalReferences == report.externalFiles)
    }

    /// A store written the way Core Data on a Mac writes one, with entities this harness's model does not have
    /// (a sub-entity sharing its parent's table, a join table) and no model of ours in Z_MODELCACHE.
    static func foreignStore(at url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let queue = try DatabaseQueue(path: url.path)
        let plist = try PropertyListSerialization.data(fromPropertyList: [
            "NSStoreUUID": "7B0F7A9C-9A34-4F0C-8E43-0D1C2B3A4F5E", "NSStoreType": "SQLite",
            "NSStoreModelVersionHashes": ["Person": Data(count: 32), "Employee": Data(count: 32), "Team": Data(count: 32)],
            "NSStoreModelVersionHashesVersion": 3, "NSPersistenceFrameworkVersion": 1338,
        ] as [String: Any], format: .binary, options: 0)
        try queue.write { db in
            try db.execute(sql: """
                CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER);
                CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB);
                CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB);
                CREATE TABLE ZPERSON (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR, ZSALARY FLOAT, ZPHOTO BLOB);
                CREATE TABLE ZTEAM (Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZTITLE VARCHAR);
                CREATE TABLE Z_1TEAMS (Z_1MEMBERS INTEGER, Z_3TEAMS INTEGER, PRIMARY KEY (Z_1MEMBERS, Z_3TEAMS));
                INSERT INTO Z_PRIMARYKEY VALUES (1, 'Person', 0, 3), (2, 'Employee', 1, 0), (3, 'Team', 0, 1);
                INSERT INTO ZPERSON VALUES (1, 1, 1, 'Ada', NULL, x'01ffee'), (2, 2, 4, 'Bob', 100.5, NULL), (3, 2, 1, 'Cy', 90, NULL);
                INSERT INTO ZTEAM VALUES (1, 3, 2, 'core');
                INSERT INTO Z_1TEAMS VALUES (1, 1), (2, 1);
                """)
            try db.execute(sql: "INSERT INTO Z_METADATA VALUES (1, '7B0F7A9C-9A34-4F0C-8E43-0D1C2B3A4F5E', ?)", arguments: [plist])
            try db.execute(sql: "INSERT INTO Z_MODELCACHE VALUES (x'00112233')")
        }
        try queue.close()
    }

    @Test func readsAStoreWrittenByAnotherModel() throws {
        let scratch = try Scratch("foreign")
        let url = scratch.path("Mac/Foreign.sqlite")
        try Self.foreignStore(at: url)
        let report = try StoreVerifier.verify(url)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.objectCounts == ["Person": 1, "Employee": 2, "Team": 1])
        // Compared with itself it is equal; objects are matched by Z_PK where there is no identity attribute.
        #expect(try StoreComparison.compare(url, against: url).findings.isEmpty)
    }

    @Test func findsBrokenBookkeepingAndDanglingLinksInAForeignStore() throws {
        let scratch = try Scratch("foreign-broken")
        let url = scratch.path("Foreign.sqlite")
        try Self.foreignStore(at: url)
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { db in
            try db.execute(sql: "INSERT INTO ZPERSON VALUES (9, 1, 1, 'Zed', NULL, NULL)")
            try db.execute(sql: "INSERT INTO ZTEAM VALUES (2, 7, 1, 'ghost entity')")
            try db.execute(sql: "INSERT INTO Z_1TEAMS VALUES (42, 1)")
        }
        try queue.close()
        let report = try StoreVerifier.verify(url)
        #expect(report.findings.contains { $0.kind == .bookkeeping && $0.message.contains("Z_MAX is 3 but ZPERSON holds Z_PK 9") })
        #expect(report.findings.contains { $0.kind == .bookkeeping && $0.message.contains("Z_ENT outside") })
        #expect(report.findings.contains { $0.kind == .danglingRelationship && $0.message.contains("Z_1TEAMS") })
        #expect(report.hasViolations)
    }

    @Test func namesMissingExternalFilesAndListsOrphans() throws {
        let scratch = try Scratch("blobs")
        let url = try scratch.store(objects: 60, blobFraction: 0.5, blobSize: 110_000)
        let files = StoreFiles(url)
        let victim = try #require(files.externalFileNames().first)
        try FileManager.default.removeItem(at: files.externalFile(victim))
        try Data("stray".utf8).write(to: files.externalFile(UUID().uuidString))
        let report = try StoreVerifier.verify(url)
        let missing = report.findings.filter { $0.kind == .missingExternalFile }
        #expect(missing.count == 1)
        #expect(missing.first?.message.contains(victim) == true)
        #expect(report.findings.filter { $0.kind == .orphanExternalFile }.count == 1)
        #expect(report.findings.first { $0.kind == .orphanExternalFile }?.severity == .warning)
        #expect(report.hasViolations)
    }

    @Test func orphansAloneAreOnlyWarnings() throws {
        let scratch = try Scratch("orphans")
        let url = try scratch.store(objects: 20, blobFraction: 0.5, blobSize: 110_000)
        try FileManager.default.createDirectory(at: StoreFiles(url).externalDataFolder, withIntermediateDirectories: true)
        try Data("stray".utf8).write(to: StoreFiles(url).externalFile(UUID().uuidString))
        let report = try StoreVerifier.verify(url)
        #expect(!report.hasViolations)
        #expect(report.count(.orphanExternalFile) == 1)
    }

    @Test func corruptedPagesAreAViolationNotACrash() throws {
        let scratch = try Scratch("corrupt")
        let url = try scratch.store(objects: 300)
        let handle = try FileHandle(forUpdating: url)
        try handle.seek(toOffset: 4096 * 3)
        handle.write(Data(repeating: 0xA5, count: 4096 * 4))
        try handle.close()
        let report = try StoreVerifier.verify(url)
        #expect(report.hasViolations)
        #expect(report.findings.contains { $0.kind == .integrity || $0.kind == .unreadable })
    }

    @Test func missingPathIsBadInput() throws {
        #expect(throws: StoreError.missingStore("/nonexistent/x.sqlite")) {
            try StoreVerifier.verify(URL(fileURLWithPath: "/nonexistent/x.sqlite"))
        }
    }
}
