import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// `lifeboat try` on two programs a user might write: one that copies the database file alone (caught with the
/// -wal's commits missing) and one that copies through SQLite's backup API with the attachments and syncs (held),
/// each in the matrix's own situations; the table, the repro files and `--save`.
@Suite struct TryCommandTests {
    static let broken = """
        #!/bin/sh
        # Copies the database file alone: no -wal, no attachments folder.
        cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"
        """
    static let correctBackup = """
        #!/bin/sh
        set -eu
        # Core Data deletes an attachment file right after the commit that replaces it, so the database and its
        # attachments folder copied one after the other can disagree. Holding SQLite's write lock on a second
        # connection while both are copied means nothing commits meanwhile: every file the copy refers to stays.
        python3 - <<'PY'
        import os, shutil, sqlite3
        store, dest = os.environ["LIFEBOAT_STORE"], os.environ["LIFEBOAT_BACKUP_DIR"]
        name = os.path.basename(store)
        folder = os.path.dirname(store)
        support = "." + os.path.splitext(name)[0] + "_SUPPORT"
        os.makedirs(dest, exist_ok=True)
        lock = sqlite3.connect(store, timeout=30, isolation_level=None)
        lock.execute("BEGIN IMMEDIATE")
        source, copy = sqlite3.connect(store, timeout=30), sqlite3.connect(os.path.join(dest, name))
        source.backup(copy)
        copy.close(); source.close()
        for root, _, files in os.walk(os.path.join(folder, support)):
            target = os.path.join(dest, os.path.relpath(root, folder))
            os.makedirs(target, exist_ok=True)
            for file in files:
                if file.endswith(".interim"):
                    continue  # still being written by a save that has not committed
                try:
                    shutil.copy2(os.path.join(root, file), os.path.join(target, file))
                except FileNotFoundError:
                    pass  # deleted by a commit before ours: nothing in the copy refers to it
        lock.execute("COMMIT")
        PY
        sync
        """
    static let correctRestore = """
        #!/bin/sh
        set -eu
        name=$(basename "$LIFEBOAT_BACKUP")
        support="$(dirname "$LIFEBOAT_BACKUP")/.${name%.*}_SUPPORT"
        sqlite3 "$LIFEBOAT_STORE" ".restore '$LIFEBOAT_BACKUP'"
        if [ -d "$support" ]; then rm -rf "$(dirname "$LIFEBOAT_STORE")/.${name%.*}_SUPPORT"; cp -a "$support" "$(dirname "$LIFEBOAT_STORE")/"; fi
        sync
        """

    static func write(_ scratch: Scratch, _ name: String, _ text: String) throws -> String {
        let url = scratch.path(name)
        try (text + "\n").write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }

    static func latest(_ reports: URL) throws -> (URL, ToolMatrix.Result) {
        let folder = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        return (folder, try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: folder.appendingPathComponent("matrix.json"))))
    }

    @Test func aBrokenProgramIsCaughtWithItsReproAndSavedScenarios() async throws {
        let scratch = try Scratch("try-broken")
        let backup = try Self.write(scratch, "backup.sh", Self.broken)
        let reports = scratch.path("reports")
        let save = scratch.path("ci")
        let code = await LifeboatMain.run(["try", "--backup", "sh \(backup)", "--situations", "idle,live-wal", "--save", save.path,
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        #expect(code == 1)
        let (folder, result) = try Self.latest(reports)
        #expect(result.cells.map(\.situation) == ["idle", "live-wal"])
        let lines = TryProgram.lines(result, skipped: [], matrix: folder)
        #expect(lines.first?.hasPrefix("idle") == true && lines.first?.hasSuffix("held") == true, "\(lines)")
        let caught = try #require(lines.first { $0.hasPrefix("live-wal") })
        #expect(caught.contains("CAUGHT wal-content-carried"), "\(caught)")
        // Then each finding once, worst first: its consequence, evidence and fix.
        #expect(lines.contains { $0.hasPrefix("1. wal-content-carried: every commit since the last checkpoint is missing") }, "\(lines)")
        #expect(lines.contains { $0.contains("e.g.") && $0.contains("acknowledged before the backup began") }, "\(lines)")
        #expect(lines.contains { $0.contains("fix: copy the -wal with the database") }, "\(lines)")
        // Wrapped at a terminal's width, no line is longer than it (but a path alone on its line).
        let narrow = TryProgram.lines(result, skipped: [], matrix: folder, width: 60)
        #expect(narrow.filter { !$0.contains("/") }.allSatisfy { $0.count <= 60 }, "\(narrow)")
        let repro = try #require(lines.first { $0.contains("repro: ") }).components(separatedBy: "repro: ")[1]
        #expect(try ScenarioParser.parse(file: URL(fileURLWithPath: repro)).expect == .violation("wal-content-carried"))
        // --save: the scenarios as run, flattened and expecting pass; the script, outside the working folder, is
        // named by its absolute path, and no restore.sh stands in for a restore program that was not given.
        for name in ["try-idle.yaml", "try-live-wal.yaml"] {
            #expect(FileManager.default.fileExists(atPath: save.appendingPathComponent(name).path), "\(name)")
        }
        #expect(!FileManager.default.fileExists(atPath: save.appendingPathComponent("restore.sh").path))
        let saved = try ScenarioParser.parse(file: save.appendingPathComponent("try-live-wal.yaml"))
        #expect(saved.expect == .pass && saved.writers.count == 2 && saved.schedule.allSatisfy { $0.action == .backup })
        #expect(saved.schedule.first?.command == "sh \(backup)", "\(saved.schedule.first?.command ?? "nil")")
    }

    @Test func aCorrectProgramHoldsInTheSituations() async throws {
        let scratch = try Scratch("try-correct")
        let backup = try Self.write(scratch, "backup.sh", Self.correctBackup)
        let restore = try Self.write(scratch, "restore.sh", Self.correctRestore)
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["try", "--backup", "sh \(backup)", "--restore", "sh \(restore)",
                                           "--situations", "live-wal,attachments,crash-after-backup",
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        let (folder, result) = try Self.latest(reports)
        #expect(code == 0, "\(TryProgram.lines(result, skipped: [], matrix: folder))")
        #expect(result.cells.count == 3 && result.cells.allSatisfy(\.held))
        // Every situation's line says held (the app's own findings, if any, on indented lines of their own).
        let situations = TryProgram.lines(result, skipped: [], matrix: folder).prefix { !$0.isEmpty }
        #expect(situations.filter { !$0.hasPrefix(" ") }.allSatisfy { $0.hasSuffix("held") }, "\(situations)")
    }

    @Test func badInputExitsTwo() async throws {
        let scratch = try Scratch("try-bad")
        let reports = scratch.path("reports").path
        #expect(await LifeboatMain.run(["try", "--backup", "", "--reports", reports]) == 2)
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--situations", "nope", "--reports", reports]) == 2)
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--store", scratch.path("none.sqlite").path, "--reports", reports]) == 2)
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--seeds", "3-1", "--reports", reports]) == 2)
    }

    /// The situations `try` runs are the matrix's: the embedded copy is the files, byte for byte, and every
    /// shipped recipe runs every situation.
    @Test func theEmbeddedSituationsAreTheMatrixFiles() throws {
        let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Scenarios")
        var onDisk = ["_defaults.yaml"]
        onDisk += try FileManager.default.contentsOfDirectory(atPath: scenarios.appendingPathComponent("tools/_situations").path)
            .filter { $0.hasSuffix(".yaml") }.map { "tools/_situations/\($0)" }
        #expect(Set(Situations.embeddedFiles.map(\.path)) == Set(onDisk), "rerun scripts/embed-situations.py")
        for (path, text) in Situations.embeddedFiles {
            let file = try String(contentsOf: scenarios.appendingPathComponent(path), encoding: .utf8)
            #expect(file == text, "\(path) changed: rerun scripts/embed-situations.py")
        }
        let situations = try ToolMatrix.situationFiles(in: scenarios.appendingPathComponent("tools")).map(\.name)
        #expect(situations.contains("readers-snapshots") && situations.contains("crash-after-backup"))
        // A recipe that runs a sidecar has its own file for each situation it takes (ToolRecipeTests).
        for recipe in try ToolMatrix.discover(scenarios.appendingPathComponent("tools")) {
            let names = recipe.situations.map(\.name)
            #expect(recipe.runsSidecar ? situations.filter(names.contains) == names : names == situations, "\(recipe.tool)")
        }
    }
}
