import Foundation
import LifeboatCLI
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `lifeboat backup` and `restore` by hand on stores Core Data wrote, on scratch copies: every backup checks
/// equal to the original, every restore comes back equal, and nothing is lost by the harness.
@Suite struct RealStoreOperationTests {
    static let backups = ["replace", "backup-api", "vacuum-into", "file-copy-full", "migrate"]

    @Test(arguments: RealStoreFixtures.names)
    func everyBackupChecksEqualToTheOriginal(_ fixture: String) async throws {
        let scratch = try Scratch("real-backup")
        let live = try RealStoreFixtures.copy(fixture, into: scratch.path("live"))
        let original = try RealStoreFixtures.copy(fixture, into: scratch.path("original"))
        for strategy in Self.backups {
            let directory = scratch.path("backup-\(strategy)")
            #expect(await LifeboatMain.run(["backup", "--strategy", strategy, live.path, directory.path]) == 0, "\(fixture) \(strategy)")
            let backup = directory.appendingPathComponent(live.lastPathComponent)
            let report = try StoreComparison.compare(backup, against: original)
            #expect(!report.hasViolations, "\(fixture) \(strategy): \(report.violations.prefix(3))")
        }
        #expect(try !StoreComparison.compare(live, against: original).hasViolations)
    }

    @Test(arguments: RealStoreFixtures.names)
    func restoresComeBackEqual(_ fixture: String) async throws {
        let scratch = try Scratch("real-restore")
        let original = try RealStoreFixtures.copy(fixture, into: scratch.path("original"))
        let source = try RealStoreFixtures.copy(fixture, into: scratch.path("source"))
        #expect(await LifeboatMain.run(["backup", "--strategy", "replace", source.path, scratch.path("backup").path]) == 0)
        let backup = scratch.path("backup").appendingPathComponent(source.lastPathComponent)
        for strategy in ["replace-then-readd", "destroy-then-migrate"] {
            let live = try RealStoreFixtures.copy(fixture, into: scratch.path("live-\(strategy)"))
            #expect(await LifeboatMain.run(["restore", "--strategy", strategy, backup.path, live.path]) == 0, "\(fixture) \(strategy)")
            let report = try StoreComparison.compare(live, against: original)
            #expect(!report.hasViolations, "\(fixture) \(strategy): \(report.violations.prefix(3))")
        }
    }

    /// Backups and migrations open their source read-only: a rollback-journal store is not switched to WAL,
    /// and its bytes stay as they were.
    @Test func migrateLeavesARollbackJournalSourceAsItWas() async throws {
        let scratch = try Scratch("real-source")
        let live = try RealStoreFixtures.copy("wibosco-v1", into: scratch.path("live"))
        let before = FolderDigest.of(live.deletingLastPathComponent())
        for strategy in Self.backups {
            #expect(await LifeboatMain.run(["backup", "--strategy", strategy, live.path, scratch.path("b-\(strategy)").path]) == 0)
        }
        #expect(FolderDigest.of(live.deletingLastPathComponent()) == before)
    }

    /// migrate keeps its documented behaviour on a real store: into an existing backup it appends, and the second
    /// backup holds every object twice.
    @Test func migratingTwiceIntoOneBackupDuplicates() async throws {
        let scratch = try Scratch("real-migrate-twice")
        let live = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("live"))
        let directory = scratch.path("backup")
        #expect(await LifeboatMain.run(["backup", "--strategy", "migrate", live.path, directory.path]) == 0)
        #expect(await LifeboatMain.run(["backup", "--strategy", "migrate", live.path, directory.path]) == 0)
        let backup = directory.appendingPathComponent(live.lastPathComponent)
        #expect(try StoreVerifier.verify(backup).findings.isEmpty)
        let report = try StoreComparison.compare(backup, against: live)
        #expect(report.hasViolations)
        #expect(await LifeboatMain.run(["check", backup.path, "--against", live.path]) == 1)
    }

    /// A restore reads its backup before it touches the live store: an unreadable backup is exit 2 and the live
    /// store's folder stays byte for byte as it was.
    @Test(arguments: ["replace-then-readd", "destroy-then-migrate", "file-copy-over"])
    func unreadableBackupLeavesTheLiveStoreAlone(_ strategy: String) async throws {
        let scratch = try Scratch("real-bad-backup")
        let live = try RealStoreFixtures.copy("wibosco-wal", into: scratch.path("live"))
        let before = FolderDigest.of(live.deletingLastPathComponent())
        let garbage = scratch.path("garbage/Store.sqlite")
        try FileManager.default.createDirectory(at: garbage.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(repeating: 0x5A, count: 8192).write(to: garbage)
        let truncated = scratch.path("truncated/Store.sqlite")
        try FileManager.default.createDirectory(at: truncated.deletingLastPathComponent(), withIntermediateDirectories: true)
        let real = try Data(contentsOf: try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("x")))
        try real.prefix(100).write(to: truncated)
        let directory = scratch.path("directory.sqlite")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for backup in [garbage, truncated, directory, scratch.path("missing/Store.sqlite")] {
            #expect(await LifeboatMain.run(["restore", "--strategy", strategy, backup.path, live.path]) == 2, "\(backup.lastPathComponent)")
            #expect(FolderDigest.of(live.deletingLastPathComponent()) == before, "\(strategy) from \(backup.path)")
        }
    }
}
