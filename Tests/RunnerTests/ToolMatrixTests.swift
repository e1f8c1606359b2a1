import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// `lifeboat matrix` on a small directory of its own: one recipe (a user's `cp` of the database file only) in two
/// situations, one that holds and one that loses the -wal; the table, the JSON, the HTML, the tool version, and a
/// repro that replays the finding.
@Suite(.serialized, .ownThread) struct ToolMatrixTests {
    static func makeRecipes(in scratch: Scratch) throws -> URL {
        let root = scratch.path("recipes")
        let recipe = root.appendingPathComponent("cp-db-only")
        try FileManager.default.createDirectory(at: recipe, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: root.appendingPathComponent("_shared"), withIntermediateDirectories: true)
        let files = [
            "_shared/base.yaml": """
                store: {objects: 40, blob_fraction: 0}
                writers: {count: 1, transactions: 150, rate: 100, blob_fraction: 0, checkpoint: none}
                time_limit: 60
                """,
            "cp-db-only/idle.yaml": """
                name: cp-db-only-idle
                description: "idle: cp of the database file"
                extends: ../_shared/base.yaml
                writers: {count: 0}
                schedule:
                  - backup: command
                    command: sh "$LIFEBOAT_SCENARIO_DIR/backup.sh"
                expect: pass
                """,
            "cp-db-only/live-wal.yaml": """
                name: cp-db-only-live-wal
                description: "live-wal: cp of the database file"
                extends: ../_shared/base.yaml
                schedule:
                  - backup: command
                    command: sh "$LIFEBOAT_SCENARIO_DIR/backup.sh"
                    after_commits: 30
                expect: violation wal-content-carried
                """,
            "cp-db-only/backup.sh": "cp \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR/\"\n",
            "cp-db-only/version.sh": "cp --version | head -1\n",
            "cp-db-only/recipe.md": "`cp` of the database file alone.\n",
        ]
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return root
    }

    @Test func matrixWritesTheTableAndReproducibleFindings() throws {
        let scratch = try Scratch("matrix")
        let recipes = try Self.makeRecipes(in: scratch)
        let out = scratch.path("docs/tools.md")
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let directory = try RunDirectory.create(root: scratch.path("reports"), prefix: "matrix-")
        let run = try ToolMatrix.run(try ToolMatrix.discover(recipes), seeds: [3], matrix: directory, settings: settings,
                                     command: "test", directory: recipes.path) { _ in }
        #expect(run.expectationsMet)
        try ToolMatrixReport.write(run, to: directory)
        try ToolMatrixReport.publish(run, to: out)
        let matrix = directory.url
        let result = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: matrix.appendingPathComponent("matrix.json")))
        #expect(result.situations == ["idle", "live-wal"] && result.seeds == [3])
        #expect(result.tools.map(\.recipe) == ["cp-db-only"] && result.tools[0].version.contains("coreutils"))
        let idle = try #require(result.cells.first { $0.situation == "idle" })
        let live = try #require(result.cells.first { $0.situation == "live-wal" })
        #expect(idle.held && !live.held && live.violated.contains("wal-content-carried"))
        let markdown = try String(contentsOf: out, encoding: .utf8)
        #expect(markdown.contains("| cp-db-only | held 1/1 | **caught 1/1**: wal-content-carried"), "\(markdown)")
        #expect(markdown.contains("(tools/repros/cp-db-only-live-wal-seed3.yaml)"))
        #expect(try String(contentsOf: matrix.appendingPathComponent("matrix.html"), encoding: .utf8).contains("class=caught"))
        // The published repro replays the finding from where it lies (its scripts named relative to it).
        let reproFile = scratch.path("docs/tools/repros/cp-db-only-live-wal-seed3.yaml")
        let repro = try ScenarioParser.parse(file: reproFile)
        #expect(repro.seed == 3 && repro.expect == .violation("wal-content-carried"))
        let (again, _) = try DrillTests.run(repro, file: reproFile.path, scratch: scratch)
        #expect(again.expectationMet, "\(again.verdicts.filter { $0.status == .violated }.map(\.invariant)) \(again.errors)")
    }

    @Test func relativePaths() {
        #expect(ToolMatrix.relativePath(from: URL(fileURLWithPath: "/a/b/docs/x/repros"), to: URL(fileURLWithPath: "/a/b/Scenarios/tools/rsync"))
            == "../../../Scenarios/tools/rsync")
        #expect(ToolMatrix.relativePath(from: URL(fileURLWithPath: "/a"), to: URL(fileURLWithPath: "/a")) == ".")
    }
}
