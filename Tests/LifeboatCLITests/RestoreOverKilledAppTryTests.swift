import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Testing

/// The `restore-over-killed-app` situation through `lifeboat try` (issue 39, point 5): the app is killed with its
/// -wal and -shm beside the database, the restore runs over that store, and the power fails the moment it reports
/// success. `restore-verified.sh` removes them before it renames the database into place and fsyncs the folder
/// last: it holds on every seed. The same restore with the removal moved after that fsync
/// (`LIFEBOAT_RESTORE_WAL_REMOVAL=late`), equals the backup when it reports success, but the crash brings the old -wal back: caught by
/// `restore-durable` on every seed, with the lost unlink of the -wal as the cause; a copy over the database that
/// leaves the -wal is caught at once, by `restore-equals-backup`.
@Suite(.serialized, .ownThread) struct RestoreOverKilledAppTryTests {
    /// `restore` is a script of Scenarios/scripts, or (with a slash) a path; `environment`, assignments before it.
    static func tryProgram(restore: String, environment: String = "", name: String) async throws -> (Int32, ToolMatrix.Result) {
        let scratch = try Scratch(name)
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["try", "--backup", "sh \(DamagedBackupTryTests.scripts.path)/backup-with-checksums.sh",
                                           "--restore", environment + "sh " + (restore.contains("/") ? restore : "\(DamagedBackupTryTests.scripts.path)/\(restore)"),
                                           "--situations", "restore-over-killed-app", "--seeds", "1-3",
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        return (code, try TryCommandTests.latest(reports).1)
    }

    @Test func aRestoreThatRemovesTheStaleWalBeforeItsLastFolderSyncHoldsOnEverySeed() async throws {
        let (code, result) = try await Self.tryProgram(restore: "restore-verified.sh", name: "try-killed-app-careful")
        let runs = result.cells.flatMap(\.runs)
        #expect(code == 0, "\(runs.map { "\($0.violated) \($0.failures) \($0.cause ?? "")" })")
        #expect(runs.count == 3 && runs.allSatisfy(\.held))
    }

    @Test func aRestoreThatRemovesTheStaleWalAfterItsLastFolderSyncIsCaughtOnEverySeed() async throws {
        let (code, result) = try await Self.tryProgram(restore: "restore-verified.sh", environment: "LIFEBOAT_RESTORE_WAL_REMOVAL=late ",
                                                       name: "try-killed-app-late")
        let runs = result.cells.flatMap(\.runs)
        #expect(code == 1)
        #expect(runs.count == 3 && runs.allSatisfy { $0.violated.contains("restore-durable") }, "\(runs.map { "\($0.violated) \($0.failures)" })")
        // It equalled the backup when it reported success: the crash, not the restore's copy, undid it.
        #expect(runs.allSatisfy { !$0.violated.contains("restore-equals-backup") }, "\(runs.map(\.violated))")
        let findings = runs.flatMap { $0.findings ?? [] }.filter { $0.invariant == "restore-durable" }
        #expect(findings.count == 3 && findings.allSatisfy { ($0.cause ?? "").contains("unlink /Library.sqlite-wal") },
                "the cause names the removal of the -wal the crash undid: \(findings.map { $0.cause ?? "nil" })")
    }

    @Test func aRestoreThatLeavesTheStaleWalIsCaughtWhenItReportsSuccess() async throws {
        let scratch = try Scratch("try-killed-app-leaves-wal")
        let restore = try TryCommandTests.write(scratch, "restore.sh", """
            #!/bin/sh
            # Copies the backup over the database and leaves the killed app's -wal and -shm beside it.
            set -eu
            cp "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE"
            sync "$LIFEBOAT_STORE"
            """)
        let (code, result) = try await Self.tryProgram(restore: restore, name: "try-killed-app-leaves-wal-run")
        let runs = result.cells.flatMap(\.runs)
        #expect(code == 1)
        #expect(runs.count == 3 && runs.allSatisfy { $0.violated.contains("restore-equals-backup") }, "\(runs.map(\.violated))")
    }
}
