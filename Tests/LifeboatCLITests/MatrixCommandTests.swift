import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat matrix` refuses bad input with exit 2 before running anything.
@Suite struct MatrixCommandTests {
    static func makeRecipe(in scratch: Scratch) throws -> URL {
        let root = scratch.path("recipes")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("cp-db-only"), withIntermediateDirectories: true)
        try "name: cp-db-only-idle\nwriters: {count: 0}\n".write(to: root.appendingPathComponent("cp-db-only/idle.yaml"), atomically: true, encoding: .utf8)
        try "cp --version | head -1\n".write(to: root.appendingPathComponent("cp-db-only/version.sh"), atomically: true, encoding: .utf8)
        return root
    }

    @Test func badInputExitsTwo() async throws {
        let scratch = try Scratch("matrix-bad")
        let recipes = try Self.makeRecipe(in: scratch)
        let reports = scratch.path("reports").path
        #expect(await LifeboatMain.run(["matrix", scratch.path("none").path]) == 2)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--seeds", "5-2"]) == 2)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--seeds", "x"]) == 2)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--only", "nope"]) == 2)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--shard", "3/2", "--reports", reports]) == 2)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--shard", "1/2", "--out", scratch.path("t.md").path, "--reports", reports]) == 2,
                "--out publishes the whole matrix, not a shard")
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--shard", "two", "--reports", reports]) == 2)
        // A tool that is not installed: its version command fails before anything runs.
        try "no-such-tool-here --version\n".write(to: recipes.appendingPathComponent("cp-db-only/version.sh"), atomically: true, encoding: .utf8)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--reports", reports]) == 2)
        // A bad scenario is bad input with its place.
        try "name: x\nwriters: {count: lots}\n".write(to: recipes.appendingPathComponent("cp-db-only/idle.yaml"), atomically: true, encoding: .utf8)
        #expect(await LifeboatMain.run(["matrix", recipes.path, "--reports", reports]) == 2)
    }
}
