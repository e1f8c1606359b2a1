import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The drills written from the source articles' claims (moves the run follows; the app's options on an
/// incompatible store) show their claim in their evidence, not only in their expected verdict, which
/// `DrillTests` checks for every drill.
@Suite(.serialized, .ownThread) struct ArticleDrillTests {
    static func run(_ name: String) throws -> RunResult {
        let scratch = try Scratch("article-drill")
        let file = DrillTests.scenarios.appendingPathComponent(name)
        return try DrillTests.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch).0
    }

    static func evidence(_ result: RunResult, _ invariant: String) -> [String] {
        result.verdicts.first { $0.invariant == invariant }?.evidence ?? []
    }

    @Test func everyStepAndCheckAfterTheMoveUsesTheMovedStore() throws {
        let result = try Self.run("relocate-follows-the-store.yaml")
        #expect(result.expectationMet, "\(result.verdicts.filter { $0.status == .violated })")
        let restore = try #require(result.operations.first { $0.action == "restore" })
        #expect(restore.store.hasSuffix("AppGroup/Library.sqlite"), "\(restore.store)")
        // The app relaunched on the moved store: a second round of writers committed there.
        #expect(result.writers.contains { $0.writer > 100_000 && $0.committed > 0 })
        let carried = try #require(result.verdicts.first { $0.invariant == "relocation-carries-commits" })
        #expect(carried.status == .held && carried.summary.contains("AppGroup/Library.sqlite"))
    }

    @Test func aWidgetsCommitsAfterTheCleanupAreTracedToTheOldFiles() throws {
        let result = try Self.run("relocate-widget-keeps-old-store.yaml")
        let lines = Self.evidence(result, "relocation-carries-commits")
        let traced = lines.filter { $0.contains("kept the old store open across the move") }
        #expect(!traced.isEmpty, "\(lines)")
        #expect(traced.allSatisfy { $0.contains("orphaned Library.sqlite-wal") || $0.contains("truncated to 0 bytes") || $0.contains("nowhere") }, "\(traced)")
    }

    @Test func theSeedsConditionKeepsTheFilesButNotTheCommits() throws {
        let result = try Self.run("relocate-widget-condition-skips-cleanup.yaml")
        let cleanup = try #require(result.operations.first { $0.action == "cleanup" })
        #expect(cleanup.details["skipped"] == "true" && cleanup.details["holders"]?.contains("writer-1") == true)
        #expect(Self.evidence(result, "relocation-carries-commits").contains { $0.contains("in the old store at") && $0.contains("where the app no longer looks") })
    }

    @Test(arguments: [
        ("lightweight-migrate-without-infer.yaml", "error 134140"),
        ("lightweight-infer-without-migrate.yaml", "error 134100"),
        ("lightweight-type-change.yaml", "error 134140"),
        ("incompatible-store-moved-aside.yaml", "moved the store into Incompatible/"),
    ])
    func anIncompatibleStoreFailsAsCoreDataDoes(_ drill: (String, String)) throws {
        let result = try Self.run(drill.0)
        let opens = try #require(result.verdicts.first { $0.invariant == "restore-opens" })
        #expect(opens.status == .violated)
        #expect(opens.evidence.contains { $0.contains(drill.1) }, "\(opens.evidence)")
        if drill.0 == "incompatible-store-moved-aside.yaml" { #expect(opens.summary.contains("opened empty")) }
    }

    @Test func migrateOnTheAppsCoordinatorSendsItsLaterSavesToTheBackup() throws {
        let result = try Self.run("migrate-on-app-coordinator.yaml")
        let backup = try #require(result.operations.first { $0.action == "backup" })
        #expect(backup.details["coordinator"] == "app" && backup.succeeded)
        #expect(Self.evidence(result, "live-store-unaffected").contains { $0.contains("the live store does not hold its") })
    }

    @Test func savesAfterTheAppRemovedTheCopyFailAndLoseNothingAcknowledged() throws {
        let result = try Self.run("migrate-on-app-coordinator-saves-fail.yaml")
        #expect(result.expectationMet, "\(result.verdicts.filter { $0.status == .violated })")
        let backup = try #require(result.operations.first { $0.action == "backup" })
        #expect(backup.details["savesAfterMigrate"] == "fail" && backup.succeeded)
        // The app was told its later saves failed, and every save it was told succeeded is in the live store.
        let unaffected = try #require(result.verdicts.first { $0.invariant == "live-store-unaffected" })
        #expect(unaffected.status == .held, "\(unaffected.evidence)")
        let saves = try #require(result.verdicts.first { $0.invariant == "saves-after-migrate" })
        #expect(saves.status == .violated)
        #expect(saves.evidence.contains { $0.contains("has no persistent stores") }, "\(saves.evidence)")
        #expect(result.writers.contains { $0.failed > 0 })
    }

    @Test func aMigrateMoveDuplicatesOnTheSecondDeviceToo() throws {
        let result = try Self.run("cloudkit/second-device-after-migrate-move.yaml")
        #expect(result.expectationMet)
        #expect(Self.evidence(result, "no-duplicates").contains { $0.contains("device B after device-B-4") }, "\(Self.evidence(result, "no-duplicates"))")
    }
}
