import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing
@testable import Explore

/// Findings of a known root cause are named by it, from the op log's record of what the crash dropped and whose
/// call it was (issue 39, point 5): each program here is probed and crashed the moment it reports success, as the
/// deep search does, and its finding is explained as the search explains it. A backup written through SQLite in
/// DELETE mode straight to its name loses its journal's unlink (SQLite's fix: `PRAGMA synchronous=EXTRA`), one that
/// fsyncs its file and renames it loses the rename, a restore that never syncs loses everything it did; and when
/// only a tool the script ran made the lost calls (sqlite3, cp, mv), the cause says so.
@Suite(.serialized, .ownThread) struct DeepRootCauseTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Deep")

    /// The finding of a crash (keep-none) the moment `program`'s `target` reports success, explained.
    static func crashAfterSuccess(_ program: TryProgram.Program, target name: String) throws -> (DeepSearch.Finding, [String: Int]) {
        let scratch = try Scratch("deep-root-cause")
        let recipe = try TryProgram.recipe(for: program, at: scratch.path("scenarios"), workingDirectory: scratch.url, only: ["idle"]).recipe
        let situation = try #require(recipe.situations.first)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let search = DeepSearch(situation: situation.scenario, file: situation.file.path, directory: scratch.path("deep"), settings: settings)
        let target = try #require(search.targets.first { $0.program == name })
        let (_, calls, _) = try search.probe(target)
        let row = try search.crashAfterSuccess(target, mode: .keepNone, folder: scratch.path("deep/crash"))
        #expect(row.outcome == "violated", "\(row.outcome) \(row.errors)")
        var finding = DeepSearch.Finding(walk: "\(name): crash keep-none after it reported success", n: 1, operation: "reported success",
                                         violated: row.violated, evidence: row.evidence, cause: row.cause, repro: row.repro)
        DeepSearch.explain(&finding, report: row.report, calls: calls, command: target.command)
        return (finding, calls)
    }

    @Test func aBackupWrittenThroughSQLiteInDeleteModeIsItsJournalsUnlink() throws {
        let script = Self.fixtures.appendingPathComponent("backup-sqlite-delete-mode.sh").path
        let (finding, _) = try Self.crashAfterSuccess(.init(backup: "sh \(script)", restore: nil, store: nil), target: "backup")
        #expect(finding.violated.contains("backup-durable"), "\(finding.violated)")
        #expect(finding.rootCause == "sqlite-delete-journal", "\(finding.cause ?? "no cause")")
        #expect(finding.cause?.hasPrefix("only calls of tools the program ran were lost (sqlite3), none of its own process's (sh): ") == true,
                "\(finding.cause ?? "no cause")")
        let causes = DeepSearch.rootCauses(of: [finding, finding])
        #expect(causes.count == 1 && causes.first?.points.count == 2 && causes.first?.fix.contains("PRAGMA synchronous=EXTRA") == true)
    }

    @Test func aBackupRenamedWithoutAFolderSyncIsItsRename() throws {
        let script = Self.fixtures.appendingPathComponent("backup-rename-no-folder-sync.sh").path
        let (finding, calls) = try Self.crashAfterSuccess(.init(backup: "sh \(script)", restore: nil, store: nil), target: "backup")
        #expect((calls["fsync"] ?? 0) > 0, "it fsyncs its file")
        #expect(finding.rootCause == "rename-no-folder-fsync", "\(finding.cause ?? "no cause")")
    }

    @Test func aRestoreThatNeverSyncsIsTheProgramNeverSyncing() throws {
        let backup = Self.fixtures.appendingPathComponent("backup-rename-no-folder-sync.sh").path
        let restore = Self.fixtures.appendingPathComponent("restore-copy-rename-no-sync.sh").path
        let (finding, calls) = try Self.crashAfterSuccess(.init(backup: "sh \(backup)", restore: "sh \(restore)", store: nil), target: "restore")
        #expect((calls["fsync"] ?? 0) + (calls["fsyncdir"] ?? 0) == 0)
        #expect(finding.violated.contains("restore-durable"), "\(finding.violated)")
        #expect(finding.rootCause == "never-syncs", "\(finding.cause ?? "no cause")")
        #expect(finding.cause?.hasPrefix("only calls of tools the program ran were lost (") == true, "cp and mv made them: \(finding.cause ?? "")")
    }

    @Test func theProgramsOwnProcessIsNamedByItsCommandLine() {
        #expect(DeepSearch.commandName("sh /path/to/backup.sh") == "sh")
        #expect(DeepSearch.commandName("FOO=1 env /usr/local/bin/restic backup") == "restic")
        #expect(DeepSearch.commandName("") == nil && DeepSearch.commandName("exec python3 -") == "python3")
        #expect(DeepSearch.toolName(of: "backup-1 (sqlite3)") == "sqlite3" && DeepSearch.toolName(of: "writer-1") == nil)
    }
}
