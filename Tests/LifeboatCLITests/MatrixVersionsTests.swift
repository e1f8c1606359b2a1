import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// `lifeboat matrix --versions` on a project of its own: one recipe pinning three versions of a small tool, two
/// installed in `.venv/tools/<package>-<version>/bin` (1.0 copies the database file alone, 2.0 uses SQLite's
/// online backup) and one not installed. Each version is a row; the one that is missing is an environment error
/// (not run, exit 2), never a finding; the table marks where the finding goes away. The recipe's `expect:` is
/// about its default version (2.0): 1.0's finding is shown, not held against the recipe.
@Suite(.serialized, .ownThread) struct MatrixVersionsTests {
    static func makeProject(in scratch: Scratch) throws -> URL {
        let project = scratch.path("project")
        let tools = project.appendingPathComponent("Scenarios/tools")
        try FileManager.default.createDirectory(at: tools.appendingPathComponent("snap"), withIntermediateDirectories: true)
        let lib = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/tools/_lib.sh").standardizedFileURL
        try FileManager.default.copyItem(at: lib, to: tools.appendingPathComponent("_lib.sh"))
        let base = "store: {objects: 40, blob_fraction: 0}\ntime_limit: 60\n"
        let writers = "writers: {count: 1, transactions: 150, rate: 100, blob_fraction: 0, checkpoint: none}\n"
        let files = [
            "Scenarios/tools/snap/_versions.yaml": "package: snap-tool\nversions: [1.0, 2.0, 3.0]\ndefault: 2.0\n",
            "Scenarios/tools/snap/idle.yaml": "name: snap-idle\n\(base)writers: {count: 0}\nschedule:\n  - backup: command\n    command: sh \"$LIFEBOAT_SCENARIO_DIR/backup.sh\"\nexpect: pass\n",
            "Scenarios/tools/snap/live-wal.yaml": "name: snap-live-wal\n\(base)\(writers)schedule:\n  - backup: command\n    command: sh \"$LIFEBOAT_SCENARIO_DIR/backup.sh\"\n    after_commits: 30\n"
                + "expect: pass\n",
            "Scenarios/tools/snap/backup.sh": ". \"$(dirname \"$0\")/../_lib.sh\"\nsnap \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR\"\n",
            "Scenarios/tools/snap/version.sh": ". \"$(dirname \"$0\")/../_lib.sh\"\nneed snap\nsnap --version\n",
            ".venv/tools/snap-tool-1.0/bin/snap": "#!/bin/sh\n[ \"$1\" = --version ] && { echo snap 1.0; exit 0; }\ncp \"$1\" \"$2/\"\n",
            ".venv/tools/snap-tool-2.0/bin/snap": "#!/bin/sh\n[ \"$1\" = --version ] && { echo snap 2.0; exit 0; }\n"
                + "sqlite3 \"$1\" \".backup '$2/$(basename \"$1\")'\"\n",
        ]
        for (name, text) in files {
            let url = project.appendingPathComponent(name)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try text.write(to: url, atomically: true, encoding: .utf8)
            if name.hasSuffix("bin/snap") { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }
        return tools
    }

    @Test func eachPinnedVersionIsARowAndAMissingOneIsNotRun() async throws {
        let scratch = try Scratch("matrix-versions")
        let tools = try Self.makeProject(in: scratch)
        let reports = scratch.path("reports")
        let arguments = ["matrix", tools.path, "--versions", "--seeds", "1", "--reports", reports.path, "--scratch", scratch.path("scratch").path]
        #expect(await LifeboatMain.run(arguments) == 2)
        let latest = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        let result = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: latest.appendingPathComponent("matrix.json")))
        #expect(result.tools.map(\.recipe) == ["snap@1.0", "snap@2.0", "snap@3.0"])
        #expect(result.tools.map(\.version) == ["snap 1.0", "snap 2.0", "not installed"])
        #expect(result.tools.map(\.pinned) == ["1.0", "2.0", "3.0"] && result.tools.allSatisfy { $0.tool == "snap" })
        func cell(_ row: String, _ situation: String) throws -> ToolMatrix.Cell {
            try #require(result.cells.first { $0.recipe == row && $0.situation == situation })
        }
        let old = try cell("snap@1.0", "live-wal")
        #expect(old.violated.contains("wal-content-carried") && old.runs.allSatisfy { $0.expectationMet && $0.expectation.contains("not the recipe's default version, 2.0") })
        #expect(try cell("snap@2.0", "live-wal").held && cell("snap@2.0", "idle").held)
        let missing = try cell("snap@3.0", "live-wal")
        #expect(missing.isNotRun && !missing.caught && missing.runs.allSatisfy { $0.notRun?.contains("scripts/tool-versions.sh") == true })
        #expect(result.environmentErrors.count == 1 && result.environmentErrors[0].contains("snap@3.0"))
        // The change between versions, in the JSON, the table and its own section; the missing version makes none.
        #expect(result.versionChanges == [ToolMatrix.VersionChange(tool: "snap", situation: "live-wal", outcomes: [
            .init(version: "1.0", outcome: "caught wal-content-carried"), .init(version: "2.0", outcome: "held")])])
        let markdown = try String(contentsOf: latest.appendingPathComponent("matrix.md"), encoding: .utf8)
        #expect(markdown.contains("| snap@2.0 | held 1/1 | held 1/1; **changed since 1.0** |"), "\(markdown)")
        #expect(markdown.contains("| snap@3.0 | not run 1/1 | not run 1/1 |"), "\(markdown)")
        #expect(markdown.contains("- snap in live-wal: caught wal-content-carried in 1.0; held in 2.0"), "\(markdown)")
        #expect(try String(contentsOf: latest.appendingPathComponent("matrix.html"), encoding: .utf8).contains("changed since 1.0"))
        // The caught row's repro runs the same version (its commands carry LIFEBOAT_TOOL_VERSION).
        let repro = try #require(try cell("snap@1.0", "live-wal").runs.first?.repro)
        #expect(try String(contentsOf: latest.appendingPathComponent(repro), encoding: .utf8).contains("LIFEBOAT_TOOL_VERSION=1.0 sh"))

        // Without --versions the recipe is one row, the tool on PATH (here none: not installed, exit 2).
        #expect(await LifeboatMain.run(Array(arguments.filter { $0 != "--versions" })) == 2)
        let plain = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        let single = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: plain.appendingPathComponent("matrix.json")))
        #expect(single.tools.map(\.recipe) == ["snap"] && single.versionChanges.isEmpty)
    }
}
