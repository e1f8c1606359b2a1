import Foundation
import GRDB
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `check --against` on stores with no identity attribute: objects are matched by content where keys differ,
/// so "same objects, renumbered" is told from missing, extra and duplicated objects.
@Suite struct ContentEqualityTests {
    /// The xcserver fixture with every Commit renumbered, and the to-one keys pointing at commits moved along.
    static func renumberedCopy(_ scratch: Scratch) throws -> (copy: URL, original: URL) {
        let original = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("original"))
        let copy = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("copy"))
        let queue = try DatabaseQueue(path: copy.path)
        try queue.write { db in
            try db.execute(sql: """
                UPDATE ZCOMMIT SET Z_PK = Z_PK + 5000;
                UPDATE ZCOMMITCHANGE SET ZCOMMIT = ZCOMMIT + 5000 WHERE ZCOMMIT IS NOT NULL;
                UPDATE ZREVISIONBLUEPRINT SET ZCOMMIT = ZCOMMIT + 5000 WHERE ZCOMMIT IS NOT NULL;
                UPDATE ZCOMMITCONTRIBUTOR SET ZCOMMIT = ZCOMMIT + 5000 WHERE ZCOMMIT IS NOT NULL;
                UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 5000 WHERE Z_NAME = 'Commit';
                """)
        }
        try queue.close()
        return (copy, original)
    }

    @Test func renumberedObjectsCompareEqual() throws {
        let scratch = try Scratch("content-renumbered")
        let (copy, original) = try Self.renumberedCopy(scratch)
        let report = try StoreComparison.compare(copy, against: original)
        #expect(!report.hasViolations, "\(report.violations.prefix(5))")
        #expect(report.count(.renumberedObjects) == 1)
    }

    @Test func missingExtraAndChangedObjectsAreFoundUnderRenumbering() throws {
        let scratch = try Scratch("content-missing")
        let (copy, original) = try Self.renumberedCopy(scratch)
        let queue = try DatabaseQueue(path: copy.path)
        try queue.write { db in
            try db.execute(sql: "DELETE FROM ZCOMMITCHANGE WHERE Z_PK = (SELECT min(Z_PK) FROM ZCOMMITCHANGE)")
            try db.execute(sql: "INSERT INTO ZPLATFORM (Z_PK, Z_ENT, Z_OPT, ZDISPLAYNAME) SELECT max(Z_PK) + 1, 17, 1, 'extra' FROM ZPLATFORM")
            try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_NAME = 'Platform'")
        }
        try queue.close()
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.violations.contains { $0.kind == .missingObject && $0.entity == "CommitChange" })
        #expect(report.violations.contains { $0.kind == .extraObject && $0.entity == "Platform" })
        #expect(!report.violations.contains { $0.entity == "Commit" })
    }

    @Test func migratingTwiceShowsDuplicatedObjects() throws {
        let scratch = try Scratch("content-duplicates")
        let live = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("live"))
        let backup = scratch.path("backup").appendingPathComponent(live.lastPathComponent)
        let first = try LayoutMigration.migrate(from: live, to: backup)
        let second = try LayoutMigration.migrate(from: live, to: backup)
        #expect(second.objectsAlreadyInDestination == first.objects - 0 || second.objectsAlreadyInDestination > 0)
        let report = try StoreComparison.compare(backup, against: live)
        #expect(report.count(.duplicateObject) > 0)
        #expect(report.count(.missingObject) == 0)
        #expect(try StoreVerifier.verify(backup).findings.isEmpty)
    }

    /// Generated stores can carry Core Data's persistent-history tables; saves record into them and the checker
    /// reads them as a real store's.
    @Test func generatedStoreWithHistoryRecordsEverySave() throws {
        let scratch = try Scratch("history")
        let url = scratch.path("h/Library.sqlite")
        var generator = StoreGenerator(objects: 50, blobFraction: 0, seed: 3)
        generator.history = true
        try generator.generate(at: url)
        let store = try PersistentStore(at: url, model: .library)
        try store.save { context in
            try context.insert(ManagedObject(entity: "Tag", attributes: ["name": .string("history")]))
        }
        let (transactions, changes, nullOpt) = try store.read { db in
            (try Int.fetchOne(db, sql: "SELECT count(*) FROM ATRANSACTION") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM ACHANGE") ?? 0,
             try Int.fetchOne(db, sql: "SELECT count(*) FROM ACHANGE WHERE Z_OPT IS NULL") ?? 0)
        }
        try store.close()
        #expect(transactions >= 2)
        #expect(changes == nullOpt && changes >= 51)
        let report = try StoreVerifier.verify(url)
        #expect(report.findings.isEmpty, "\(report.findings)")
        #expect(report.objectCounts["CHANGE"] == changes)
    }
}
