import Foundation
import GRDB
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Strategies
import Testing

/// The CloudKit model (docs/cloudkit.md) on real store files and a real zone directory: the mirroring tables,
/// the mirror's export and import, seed 002's two moves, and a mirrored store through check, backup and restore.
@Suite struct CloudKitTests {
    /// A generated mirrored store and an empty zone.
    static func mirrored(_ scratch: Scratch, objects: Int = 40, seed: UInt64 = 3) throws -> (URL, CloudKitZone) {
        let url = scratch.path("app/Library.sqlite")
        var generator = StoreGenerator(objects: objects, blobFraction: 0, seed: seed)
        generator.cloudKit = true
        try generator.generate(at: url)
        return (url, try CloudKitZone.create(at: scratch.path("cloud")))
    }

    @discardableResult
    static func sync(_ url: URL, _ zone: CloudKitZone, seed: UInt64 = 1) throws -> CloudKitMirror.Report {
        let coordinator = PersistentStoreCoordinator(model: .library)
        let store = try coordinator.addStore(at: url)
        defer { try? coordinator.remove(store) }
        return try CloudKitMirror(zone: zone, seed: seed).sync(store)
    }

    static func sql<T>(_ url: URL, _ body: (Database) throws -> T) throws -> T {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read(body)
    }

    @Test func generatedStoreCarriesTheMirroringTablesAndHistory() throws {
        let scratch = try Scratch("ck-tables")
        let (url, _) = try Self.mirrored(scratch)
        try Self.sql(url) { db in
            for table in CloudKitMirroring.tableNames { #expect(try db.tableExists(table), "\(table)") }
            #expect(try db.tableExists("ATRANSACTION"))
            let names = try String.fetchAll(db, sql: "SELECT Z_NAME FROM Z_PRIMARYKEY WHERE Z_NAME LIKE 'NSCK%'")
            #expect(names.count == CloudKitMirroring.tableNames.count)
            let unique = try String.fetchOne(db, sql: "SELECT sql FROM sqlite_master WHERE name = 'Z_RecordMetadata_UNIQUE_entityId_entityPK'")
            #expect(unique?.contains("UNIQUE INDEX") == true && unique?.contains("ZENTITYID, ZENTITYPK") == true)
            // Nothing exported yet: no record metadata, no token.
            #expect(try Int.fetchOne(db, sql: "SELECT count(*) FROM ANSCKRECORDMETADATA") == 0)
            #expect(try CloudKitMirroring.token(db) == nil)
        }
        let schema = try Self.sql(url) { try StoreSchema.read($0) }
        #expect(schema.entities.filter { $0.framework == .cloudKit }.count == CloudKitMirroring.tableNames.count)
        #expect(!schema.entities.contains { $0.isHistory && $0.name.hasPrefix("NSCK") })
    }

    @Test func syncExportsEveryObjectOnceThenNothingAndTracksLocalChanges() throws {
        let scratch = try Scratch("ck-sync")
        let (url, zone) = try Self.mirrored(scratch)
        let first = try Self.sync(url, zone)
        #expect(first.exportedNew == 40 && first.fullImport && first.importedNew == 0)
        #expect(try zone.records().count == 40)
        let second = try Self.sync(url, zone)
        #expect(second.exportedNew == 0 && second.exportedChanged == 0 && !second.fullImport && second.tokenBefore == 40)
        // A local update marks the record for upload; a delete marks it for a cloud delete.
        let store = try PersistentStore(at: url, model: .library)
        let notes = try store.objects("Note")
        try store.save { context in
            var changed = ManagedObject(entity: "Note", id: notes[0].id)
            changed.attributes["title"] = .string("edited")
            try context.update(changed)
            try context.delete(entity: "Note", id: notes[1].id)
        }
        let flags = try store.read { try CloudKitMirroring.metadata($0) }
        #expect(flags.filter(\.needsUpload).count == 1 && flags.filter(\.needsCloudDelete).count == 1)
        try store.close()
        let third = try Self.sync(url, zone)
        #expect(third.exportedChanged == 1 && third.deletedInZone == 1)
        let records = try zone.records()
        #expect(records.count == 39)
        #expect(records.first { $0.object.id == notes[0].id }?.object.attributes["title"] == .string("edited"))
        #expect(!records.contains { $0.object.id == notes[1].id })
        #expect(try Self.sql(url) { try CloudKitMirroring.metadata($0) }.allSatisfy { !$0.needsUpload && !$0.needsCloudDelete })
    }

    @Test func recordNamesComeFromTheSeed() throws {
        let names = try (0..<2).map { _ -> [String] in
            let scratch = try Scratch("ck-seed")
            let (url, zone) = try Self.mirrored(scratch, objects: 10)
            var options = StoreOptions()
            options.readOnly = false
            _ = try Self.sync(url, zone, seed: 42)
            return try zone.records().map(\.recordName).sorted()
        }
        #expect(names[0].count == 10 && names[0] == names[1])
    }

    @Test func aSecondStoreImportsTheZoneAndAppliesDeletes() throws {
        let scratch = try Scratch("ck-device")
        let (url, zone) = try Self.mirrored(scratch)
        try Self.sync(url, zone)
        // Another device: an empty mirrored store of the same model imports every record.
        let other = scratch.path("other/Library.sqlite")
        var generator = StoreGenerator(objects: 0, seed: 9)
        generator.cloudKit = true
        try generator.generate(at: other)
        let imported = try Self.sync(other, zone)
        #expect(imported.importedNew == 40)
        let otherStore = try PersistentStore(at: other, model: .library)
        #expect(try otherStore.allObjects().count == 40)
        let victim = try otherStore.objects("Note")[0].id
        try otherStore.close()
        // A delete on the first device reaches the second through the zone.
        let store = try PersistentStore(at: url, model: .library)
        try store.save { try $0.delete(entity: "Note", id: victim) }
        try store.close()
        try Self.sync(url, zone)
        let again = try Self.sync(other, zone)
        #expect(again.importedDeletes == 1)
        let reopened = try PersistentStore(at: other, model: .library)
        #expect(try reopened.object("Note", id: victim) == nil)
        try reopened.close()
    }

    @Test func migrateMoveDuplicatesLocallyAndInTheZoneButTheAppGroupMoveDoesNot() throws {
        for strategy in [RelocateMigrate() as any RelocationStrategy, RelocateAppGroup()] {
            let scratch = try Scratch("ck-move")
            let (url, zone) = try Self.mirrored(scratch)
            try Self.sync(url, zone)
            let moved = scratch.path("group/Library.sqlite")
            var options = StrategyOptions()
            options.cloud = zone.directory.path
            _ = try strategy.relocate(from: url, to: moved, model: .library, options: options)
            let report = try Self.sync(moved, zone)
            let check = try StoreVerifier.verify(moved)
            let records = try zone.records()
            let zoneIdentities = Set(records.map(\.object.id))
            if strategy.name == "relocate-migrate" {
                #expect(report.fullImport && report.exportedNew == 40 && report.importedNew == 40)
                #expect(check.count(.duplicateIdentity) == 40)
                #expect(records.count == 80 && zoneIdentities.count == 40)
            } else {
                #expect(!report.fullImport && report.exportedNew == 0 && report.importedNew == 0)
                #expect(check.count(.duplicateIdentity) == 0 && !check.hasViolations, "\(check.findings)")
                #expect(records.count == 40)
            }
        }
    }

    @Test func signedOutMoveWithCloudKitOnBlocksUntilItsDeadlineWithTheRetryLog() throws {
        let scratch = try Scratch("ck-freeze")
        let (url, _) = try Self.mirrored(scratch, objects: 10)
        let zone = try CloudKitZone.create(at: scratch.path("cloud"), account: .unavailable)
        var options = StrategyOptions()
        options.cloud = zone.directory.path
        options.mirrorSetupDeadline = 0.6
        let started = Date()
        #expect(throws: CloudKitMirror.MirrorError.self) {
            _ = try RelocateAppGroup(cloudKitDuringMove: true).relocate(from: url, to: scratch.path("group/Library.sqlite"), model: .library, options: options)
        }
        #expect(Date().timeIntervalSince(started) >= 0.3)
        let log = try String(contentsOf: zone.logFile, encoding: .utf8)
        #expect(log.contains("setup attempt 1: no iCloud account"))
        // Untouched: the old store is still there, nothing at the App Group path.
        #expect(StoreFiles(url).exists && !StoreFiles(scratch.path("group/Library.sqlite")).exists)
        // The seed's fix (CloudKit off for the move) finishes while signed out.
        let outcome = try RelocateAppGroup().relocate(from: url, to: scratch.path("group/Library.sqlite"), model: .library, options: options)
        #expect(outcome.details["steps"]?.hasSuffix("reload (CloudKit on)") == true)
    }

    @Test func theSeedsCleanupLeavesTheStoresOwnCompanionsWhenAnotherConnectionHoldsIt() throws {
        let scratch = try Scratch("ck-cleanup")
        let (url, _) = try Self.mirrored(scratch, objects: 10)
        // A widget (another connection) has the old store open, so SQLite keeps its -wal and -shm.
        let widget = try DatabaseQueue(path: url.path)
        _ = try widget.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ZNOTE") }
        var options = StrategyOptions()
        options.cloudKitContainerName = "iCloud.com.example.Library"
        let outcome = try RelocateAppGroup().relocate(from: url, to: scratch.path("group/Library.sqlite"), model: .library, options: options)
        try widget.close()
        let leftovers = outcome.details["leftovers"] ?? ""
        #expect(leftovers.contains("Library.sqlite-wal") || leftovers.contains("Library.sqlite-shm"), "\(outcome.details)")
        #expect(!FileManager.default.fileExists(atPath: url.path))
        // The next launch: the seed's check (`fileExists(oldStoreURL)`) is false, so the app opens the App Group
        // store, which is whole; a store created again at the old path beside the stale companions opens empty.
        #expect(try !StoreVerifier.verify(scratch.path("group/Library.sqlite")).hasViolations)
        let fresh = try PersistentStore(at: url, model: .library)
        #expect(try fresh.allObjects().isEmpty)
        try fresh.close()
        // Named after the store itself, the cleanup leaves nothing.
        let scratch2 = try Scratch("ck-cleanup2")
        let (url2, _) = try Self.mirrored(scratch2, objects: 10)
        let widget2 = try DatabaseQueue(path: url2.path)
        _ = try widget2.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ZNOTE") }
        options.cloudKitContainerName = "Library"
        let clean = try RelocateAppGroup().relocate(from: url2, to: scratch2.path("group/Library.sqlite"), model: .library, options: options)
        try widget2.close()
        #expect(clean.details["leftovers"] == "")
    }

    @Test func checkKnowsTheMirroringTables() throws {
        let scratch = try Scratch("ck-check")
        let (url, zone) = try Self.mirrored(scratch, objects: 20)
        var report = try StoreVerifier.verify(url)
        #expect(!report.hasViolations, "\(report.findings)")
        #expect(report.findings.contains { $0.kind == .cloudKitMirroring && $0.severity == .warning && $0.message.contains("no record metadata") })
        try Self.sync(url, zone)
        report = try StoreVerifier.verify(url)
        #expect(!report.findings.contains { $0.kind == .cloudKitMirroring }, "\(report.findings)")
        #expect(report.objectCounts.keys.allSatisfy { !$0.hasPrefix("NSCK") })
        // A metadata row whose object is gone (no cloud delete pending) is a violation.
        let queue = try DatabaseQueue(path: url.path)
        try queue.write { try $0.execute(sql: "DELETE FROM ZNOTE WHERE Z_PK = (SELECT min(Z_PK) FROM ZNOTE)") }
        try queue.close()
        report = try StoreVerifier.verify(url)
        #expect(report.violations.contains { $0.kind == .cloudKitMirroring && $0.message.contains("does not exist") })
    }

    @Test func mirroringStateSurvivesReplaceBackupAndRestoreButNotMigrate() throws {
        let scratch = try Scratch("ck-roundtrip")
        let (url, zone) = try Self.mirrored(scratch)
        try Self.sync(url, zone)
        let before = try Self.sql(url) { db in (try CloudKitMirroring.metadata(db), try CloudKitMirroring.token(db)) }
        let replaced = try ReplaceBackup().backup(live: url, into: scratch.path("backup-replace"), model: .library, options: StrategyOptions())
        let migrated = try MigrateBackup().backup(live: url, into: scratch.path("backup-migrate"), model: .library, options: StrategyOptions())
        let kept = try Self.sql(URL(fileURLWithPath: replaced.store)) { db in (try CloudKitMirroring.metadata(db), try CloudKitMirroring.token(db)) }
        #expect(kept.0 == before.0 && kept.1 == before.1)
        let dropped = try Self.sql(URL(fileURLWithPath: migrated.store)) { try CloudKitMirroring.metadata($0) }
        #expect(dropped.isEmpty)
        #expect(try !StoreVerifier.verify(URL(fileURLWithPath: replaced.store)).hasViolations)
        // Restored with replace, the live store maps the same records and the next sync has nothing to do.
        _ = try ReplaceThenReaddRestore().restore(backup: URL(fileURLWithPath: replaced.store), over: url, model: .library, options: StrategyOptions())
        #expect(try Self.sql(url) { try CloudKitMirroring.metadata($0) } == before.0)
        let report = try Self.sync(url, zone)
        #expect(report.exportedNew == 0 && report.importedNew == 0)
    }

    @Test func restoringABackupWhoseObjectsWereExportedAfterItDuplicatesThem() throws {
        let scratch = try Scratch("ck-late-export")
        let (url, zone) = try Self.mirrored(scratch, objects: 10)
        try Self.sync(url, zone)
        let store = try PersistentStore(at: url, model: .library)
        let late = ManagedObject(entity: "Tag", id: UUID(), attributes: ["name": .string("late")])
        try store.save { try $0.insert(late) }
        try store.close()
        let backup = try ReplaceBackup().backup(live: url, into: scratch.path("backup"), model: .library, options: StrategyOptions())
        try Self.sync(url, zone) // exports the new tag after the backup was taken
        _ = try ReplaceThenReaddRestore().restore(backup: URL(fileURLWithPath: backup.store), over: url, model: .library, options: StrategyOptions())
        let report = try Self.sync(url, zone)
        #expect(report.exportedNew == 1 && report.importedNew == 1)
        #expect(try zone.records().filter { $0.object.id == late.id }.count == 2)
        #expect(try StoreVerifier.verify(url).count(.duplicateIdentity) == 1)
    }
}
