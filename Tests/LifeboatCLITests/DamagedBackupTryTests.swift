import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Testing

/// The `damaged-backup` situation through `lifeboat try` (issue 30, point 1), with the shipped fixtures: a restore
/// that checks the SHA-256 list taken at backup time (and PRAGMA integrity_check) refuses the damaged backup loudly
/// and holds, the refusal not counted as a failed step; a plain copy back restores it silently and is caught by
/// `restore-detects-damage` on every seed. The correct program's 20 seeds are measured by the command in
/// docs/recipes.md; this test runs 3 of each.
@Suite(.serialized, .ownThread) struct DamagedBackupTryTests {
    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios/scripts")

    static func tryProgram(restore: String, name: String) async throws -> (Int32, ToolMatrix.Result) {
        let scratch = try Scratch(name)
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["try", "--backup", "sh \(scripts.path)/backup-with-checksums.sh",
                                           "--restore", "sh \(scripts.path)/\(restore)", "--situations", "damaged-backup", "--seeds", "1-3",
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        return (code, try TryCommandTests.latest(reports).1)
    }

    /// Without a restore program there is nothing to refuse a damaged backup: the situation is skipped, saying so.
    @Test func withoutARestoreTheSituationIsSkippedWithWhy() throws {
        let scratch = try Scratch("try-damage-no-restore")
        let (recipe, _, skipped) = try TryProgram.recipe(for: .init(backup: "true", restore: nil, store: nil), at: scratch.path("root"),
                                                         workingDirectory: scratch.url)
        #expect(!recipe.situations.contains { $0.name == "damaged-backup" })
        #expect(skipped.contains { $0.situation == "damaged-backup" && $0.reason == "a damaged backup tests the restore: give --restore to try it" }, "\(skipped)")
    }

    @Test func aRestoreThatVerifiesHoldsOnEverySeed() async throws {
        let (code, result) = try await Self.tryProgram(restore: "restore-verified.sh", name: "try-damage-verified")
        let runs = result.cells.flatMap(\.runs)
        #expect(code == 0, "\(runs.map { "\($0.violated) \($0.failures)" })")
        #expect(runs.count == 3 && runs.allSatisfy(\.held))
    }

    @Test func aPlainCopyBackIsCaughtOnEverySeed() async throws {
        let (code, result) = try await Self.tryProgram(restore: "restore-plain-copy.sh", name: "try-damage-naive")
        let runs = result.cells.flatMap(\.runs)
        #expect(code == 1)
        #expect(runs.count == 3 && runs.allSatisfy { $0.violated.contains("restore-detects-damage") }, "\(runs.map(\.violated))")
    }
}
