import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The real-tool recipes in Scenarios/tools: every recipe runs here, the tool itself and unchanged, in one
/// situation with one seed, and shows the verdict its scenario expects (what `lifeboat matrix` measured for it;
/// docs/real-tools.md has every situation over three seeds).
@Suite(.serialized, .ownThread) struct ToolRecipeTests {
    static let tools = DrillTests.scenarios.appendingPathComponent("tools")

    /// The situation each recipe is tested in: one whose verdict held over every seed the matrix ran.
    static let tested: [String: String] = [
        "apsw-backup": "idle",
        "borg": "live-wal",
        "borgmatic-sqlite": "idle",
        "bup": "idle",
        "cp-a": "live-wal",
        "django-dbbackup": "idle",
        "django-dbbackup-copy": "idle",
        "django-dbbackup-dump": "idle",
        "duplicity": "idle",
        "litestream": "live-wal",
        "rclone": "idle",
        "rdiff-backup": "idle",
        "restic": "idle",
        // A crash situation: rsync tolerates files that vanish while it reads (exit 24), so the backup completes
        // under attachment writers and the crash after its unsynced restore is caught on every seed.
        "rsync": "crash-after-restore",
        "rsync-no-support": "attachments",
        "sqlite3-backup": "live-wal",
        "sqlite3-vacuum-into": "attachments",
        "tar": "idle",
    ]

    @Test func everyRecipeIsCompleteAndTested() throws {
        let recipes = try ToolMatrix.discover(Self.tools)
        #expect(Set(recipes.map(\.tool)) == Set(Self.tested.keys), "a recipe without a test here, or a test without its recipe")
        for recipe in recipes {
            // Every situation of _situations/, in the table's order: a new situation is one file there. A recipe
            // that runs a sidecar has a file of its own for each situation it takes (a bare situation cannot
            // arrange the schedule around its sidecar), so it has those, in the same order.
            let all = try ToolMatrix.situationFiles(in: Self.tools).map(\.name)
            let names = recipe.situations.map(\.name)
            #expect(recipe.runsSidecar ? all.filter(names.contains) == names : names == all, "\(recipe.tool): \(names)")
            for file in ["restore.sh", "version.sh", "recipe.md"] {
                #expect(FileManager.default.fileExists(atPath: recipe.directory.appendingPathComponent(file).path), "\(recipe.tool)/\(file)")
            }
            let version = try ToolMatrix.version(of: recipe)
            #expect(!version.isEmpty, "\(recipe.tool) is not installed: run scripts/setup.sh")
        }
        // Every pinned version is installed (scripts/tool-versions.sh) and is the version it claims to be.
        for row in ToolMatrix.expandingVersions(recipes) {
            guard let pinned = row.pinned else { continue }
            let version = try ToolMatrix.version(of: row)
            #expect(version.contains(pinned), "\(row.row) reports \(version)")
        }
    }

    @Test(arguments: tested.sorted { $0.key < $1.key }.map { [$0.key, $0.value] })
    func recipeShowsItsExpectedVerdict(_ pair: [String]) throws {
        let scratch = try Scratch("tool-\(pair[0])")
        let file = Self.tools.appendingPathComponent("\(pair[0])/\(pair[1]).yaml")
        var scenario = try ScenarioParser.parse(file: file)
        scenario.seed = 1
        let (result, _) = try DrillTests.run(scenario, file: file.path, scratch: scratch)
        let violated = result.verdicts.filter { $0.status == .violated }.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" }
        #expect(result.expectationMet, "\(pair[0]) in \(pair[1]) expected \(result.expectation); violated: \(violated); errors: \(result.errors)")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let failedRestores = result.operations.filter { $0.action == "restore" && !$0.succeeded }
        #expect(failedRestores.isEmpty, "\(failedRestores)")
    }
}
