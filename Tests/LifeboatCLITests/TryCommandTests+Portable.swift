import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import StoreModel
import Testing

/// What `try` leaves behind runs anywhere, and what cannot run is never a finding: a missing script is exit 2
/// before anything runs; a repro and a `--save` folder copied to another folder (and run from another working
/// folder than the one `try` ran in) replay the finding; a repro whose program is gone is "not run", exit 2;
/// `--store` on a store with no external-storage attribute leaves the attachments situation "not exercised".
extension TryCommandTests {
    @Test(arguments: ["sh missing-backup.sh", "python3 missing-backup.py", "python3 -u missing-backup.py", "perl missing-backup.pl"])
    func aMissingScriptIsNotRunBeforeAnythingRuns(command: String) async throws {
        let scratch = try Scratch("try-missing")
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["try", "--backup", command, "--situations", "idle,live-wal", "--reports", reports.path,
                                           "--scratch", scratch.path("scratch").path])
        #expect(code == 2)
        // Nothing ran: no try folder, so no run, no CAUGHT line and no repro.
        #expect(!FileManager.default.fileExists(atPath: reports.path), "\((try? FileManager.default.contentsOfDirectory(atPath: reports.path)) ?? [])")
        let reason = try #require(TryProgram.preflight(.init(backup: command, restore: nil, store: nil), workingDirectory: scratch.url))
        #expect(reason.hasPrefix("--backup: ") && reason.contains("missing-backup.") && reason.contains("does not exist or cannot be read"), "\(reason)")
        // The restore program too.
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--restore", command, "--reports", reports.path]) == 2)
        #expect(!FileManager.default.fileExists(atPath: reports.path))
    }

    /// `try` with a relative `sh tools/broken.sh` from a working folder: the runs name the script by its absolute
    /// path and the `--save` folder carries a copy, so the repro (copied elsewhere) and the `--save` folder (copied
    /// elsewhere, the original script deleted) replay the finding from this process's working folder, which is
    /// not the one `try` ran in; with the script gone, the repro's replay is "not run".
    @Test func reprosAndSavedFoldersReplayFromAnotherFolder() async throws {
        let scratch = try Scratch("try-portable")
        let work = scratch.path("work")
        try FileManager.default.createDirectory(at: work.appendingPathComponent("tools"), withIntermediateDirectories: true)
        try (Self.broken + "\n").write(to: work.appendingPathComponent("tools/broken.sh"), atomically: true, encoding: .utf8)
        #expect(work.standardizedFileURL.path != FileManager.default.currentDirectoryPath)
        let program = TryProgram.Program(backup: "sh tools/broken.sh", restore: nil, store: nil)
        #expect(TryProgram.preflight(program, workingDirectory: work) == nil)
        let matrix = try RunDirectory.create(root: scratch.path("reports"), prefix: "try-")
        let (recipe, tools, _) = try TryProgram.recipe(for: program, at: matrix.url.appendingPathComponent("scenarios"),
                                                       workingDirectory: work, only: ["live-wal"])
        let command = try #require(recipe.situations.first?.scenario.schedule.first?.command)
        #expect(command == "sh '\(work.path)/tools/broken.sh'", "\(command)")
        #expect(!recipe.situations[0].scenario.schedule.contains { $0.action == .restore })
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("runs"), scratchRoot: scratch.path("scratch"))
        let result = try ToolMatrix.run([recipe], seeds: [1], matrix: matrix, settings: settings, command: "test", directory: tools.path) { _ in }
        let cell = try #require(result.cells.first)
        #expect(cell.caught && cell.violated.contains("wal-content-carried"), "\(cell.runs)")
        let repro = matrix.url.appendingPathComponent(try #require(cell.runs.first?.repro))

        // The repro, copied to another folder, replays the finding.
        let shared = scratch.path("shared")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let copied = shared.appendingPathComponent("shared-repro.yaml")
        try FileManager.default.copyItem(at: repro, to: copied)
        #expect(await LifeboatMain.run(["replay", copied.path, "--times", "1", "--reports", scratch.path("replays").path,
                                        "--scratch", scratch.path("scratch").path]) == 0)

        // --save: no restore.sh standing in for a restore program never given; the folder, copied elsewhere with
        // the original script gone, still runs the program and fails on the finding (exit 1), from here.
        let save = scratch.path("ci")
        _ = try TryProgram.save(recipe, program: program, workingDirectory: work, seed: 1, to: save)
        #expect(try ScenarioParser.parse(file: save.appendingPathComponent("try-live-wal.yaml")).schedule.first?.command
                == "sh \"$LIFEBOAT_SCENARIO_DIR/tools/broken.sh\"")
        #expect(!FileManager.default.fileExists(atPath: save.appendingPathComponent("restore.sh").path))
        #expect(FileManager.default.fileExists(atPath: save.appendingPathComponent("tools/broken.sh").path))
        let moved = scratch.path("elsewhere/ci")
        try FileManager.default.createDirectory(at: moved.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: save, to: moved)
        try FileManager.default.removeItem(at: work)
        let runReports = scratch.path("ci-reports")
        #expect(await LifeboatMain.run(["run", moved.path, "--seeds", "1", "--reports", runReports.path,
                                        "--scratch", scratch.path("scratch").path]) == 1)
        let (_, summary) = try CampaignCommandTests.suite(runReports)
        let entry = try #require(summary.entries.first)
        #expect(summary.entries.count == 1 && entry.verdicts.contains { $0.invariant == "wal-content-carried" && $0.status.rawValue == "violated" },
                "\(summary.entries)")

        // The program gone: the repro's replay is "not run" (exit 2), never "did not reproduce".
        let gone = scratch.path("replays-gone")
        #expect(await LifeboatMain.run(["replay", copied.path, "--times", "3", "--reports", gone.path,
                                        "--scratch", scratch.path("scratch").path]) == 2)
        let notRun = try EnvironmentErrorTests.latestReport(gone)
        #expect(notRun.environmentError?.contains("broken.sh does not exist or cannot be read") == true, "\(notRun.environmentError ?? "nil")")
        #expect(!notRun.verdicts.contains { $0.status == .violated })
    }

    /// `try`'s runs run the user's own file, not a copy: a python program that imports a module beside it holds.
    @Test func theProgramRunsWithTheFilesBesideIt() throws {
        let scratch = try Scratch("try-beside")
        let work = scratch.path("work")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try """
            import os, sqlite3
            def copy(store, dest):
                os.makedirs(dest, exist_ok=True)
                source, target = sqlite3.connect(store), sqlite3.connect(os.path.join(dest, os.path.basename(store)))
                source.backup(target)
                target.close(); source.close()
            """.write(to: work.appendingPathComponent("helper.py"), atomically: true, encoding: .utf8)
        try "import os, helper\nhelper.copy(os.environ['LIFEBOAT_STORE'], os.environ['LIFEBOAT_BACKUP_DIR'])\n"
            .write(to: work.appendingPathComponent("backup.py"), atomically: true, encoding: .utf8)
        let program = TryProgram.Program(backup: "python3 backup.py", restore: nil, store: nil)
        let matrix = try RunDirectory.create(root: scratch.path("reports"), prefix: "try-")
        let (recipe, tools, _) = try TryProgram.recipe(for: program, at: matrix.url.appendingPathComponent("scenarios"),
                                                       workingDirectory: work, only: ["idle"])
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("runs"), scratchRoot: scratch.path("scratch"))
        let result = try ToolMatrix.run([recipe], seeds: [1], matrix: matrix, settings: settings, command: "test", directory: tools.path) { _ in }
        #expect(result.cells.first?.held == true, "\(result.cells.first?.runs ?? [])")
    }

    /// Every run's repro.yaml names its scripts so that it replays from any folder: the scenario's folder for
    /// `$LIFEBOAT_SCENARIO_DIR`, and the absolute path of a script the command names relative to the folder the
    /// run was started in.
    @Test func reprosPinScriptsToAbsolutePaths() {
        #expect(ProgramFiles.pinned("sh my-backup.sh --fast", scenarioDirectory: "/s", workingDirectory: "/w") == "sh '/w/my-backup.sh' --fast")
        #expect(ProgramFiles.pinned("python3 -u \"../my backup.py\" -v", scenarioDirectory: "/s", workingDirectory: "/w/x") == "python3 -u '/w/my backup.py' -v")
        #expect(ProgramFiles.pinned("./tools/b.sh \"$LIFEBOAT_STORE\"", scenarioDirectory: "/s", workingDirectory: "/w") == "'/w/tools/b.sh' \"$LIFEBOAT_STORE\"")
        #expect(ProgramFiles.pinned("sh \"$LIFEBOAT_SCENARIO_DIR/b.sh\"", scenarioDirectory: "/s", workingDirectory: "/w") == "sh \"/s/b.sh\"")
        #expect(ProgramFiles.pinned("sh ${LIFEBOAT_SCENARIO_DIR}/b.sh", scenarioDirectory: "/s", workingDirectory: "/w") == "sh /s/b.sh")
        #expect(ProgramFiles.pinned("rsync -a \"$LIFEBOAT_STORE\" b", scenarioDirectory: "/s", workingDirectory: "/w") == "rsync -a \"$LIFEBOAT_STORE\" b")
    }

    /// A Core Data store with no attribute that allows external storage (the xcserver fixture) has no attachments:
    /// the attachments situation is not exercised on it (not run, exit 3, no "held"), in the terminal lines and
    /// the matrix report, with how to exercise it.
    @Test func aStoreWithoutExternalDataLeavesTheAttachmentsSituationNotExercised() async throws {
        let scratch = try Scratch("try-store-attachments")
        let store = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("store"))
        #expect(try ExternalStorageColumns.of(store).isEmpty)
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["try", "--backup", "true", "--store", store.path, "--situations", "attachments",
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        #expect(code == 3)
        let (folder, result) = try Self.latest(reports)
        let cell = try #require(result.cells.first)
        #expect(cell.situation == "attachments" && cell.runs.isEmpty && !cell.held && !cell.caught && !cell.isNotRun)
        #expect(cell.notExercised?.contains("no attribute with external storage") == true && cell.notExercised?.contains("without --store") == true)
        let lines = TryProgram.lines(result, skipped: [], matrix: folder)
        #expect(lines.count == 1 && lines[0].contains("not exercised: your store has no attribute with external storage") && !lines[0].contains("held"),
                "\(lines)")
        let markdown = try String(contentsOf: folder.appendingPathComponent("matrix.md"), encoding: .utf8)
        #expect(markdown.contains("| not exercised: your store has no attribute") && !markdown.contains("held 0/0"), "\(markdown)")
        #expect(try String(contentsOf: folder.appendingPathComponent("matrix.html"), encoding: .utf8).contains("not exercised<br>"))

        // A store of the harness's own says so in its model: the notes' attachment allows external storage.
        let generated = scratch.path("generated/Library.sqlite")
        try FileManager.default.createDirectory(at: generated.deletingLastPathComponent(), withIntermediateDirectories: true)
        let generator = StoreGenerator(objects: 20, blobFraction: 0, seed: 1)
        _ = try generator.generate(at: generated)
        #expect(try ExternalStorageColumns.of(generated) == ["Note.attachment"])
        #expect(try TryProgram.notExercised(on: generated, situations: ["attachments"]).isEmpty)
        #expect(try TryProgram.notExercised(on: nil, situations: ["attachments"]).isEmpty)
    }
}
