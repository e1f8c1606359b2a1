import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// `lifeboat run DIR --seeds ... --catalog FILE` on a small catalog of cheap `turns` drills: the document is
/// generated from the campaign's runs (reproduced counts, invariant, counterparts, entries not reproduced with
/// their reason), and a bad catalog or a scenario that names no entry is bad input.
@Suite struct CatalogCommandTests {
    static let bug = """
        name: b01-copy-main-file
        description: A copy of the .sqlite alone, https://example.org/report/1
        scheduler: turns
        store: {objects: 40, blob_fraction: 0}
        writers: {count: 2, transactions: 15, blob_fraction: 0, checkpoint: none}
        schedule:
          - {backup: file-copy, after_commits: 10}
        invariants: [wal-content-carried]
        expect: violation wal-content-carried
        """
    static let correct = """
        name: b01-copy-main-file-correct
        description: The online backup API instead, https://example.org/report/1
        scheduler: turns
        store: {objects: 40, blob_fraction: 0}
        writers: {count: 2, transactions: 15, blob_fraction: 0, checkpoint: none}
        schedule:
          - {backup: backup-api, after_commits: 10}
        invariants: [wal-content-carried, integrity]
        expect: pass
        """
    static let catalog = """
        entries:
          - id: B1
            title: Copy without the -wal
            sources: [https://example.org/report/1]
          - id: B2
            title: Something not reproduced
            sources: [https://example.org/report/2]
            fixed_in: tool 1.2
            not_reproduced: needs a machine we do not have
        """

    static func folder(_ scratch: Scratch, catalog: String, files: [String: String]) throws -> URL {
        let folder = scratch.path("bugs")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try catalog.write(to: folder.appendingPathComponent("_catalog.yaml"), atomically: true, encoding: .utf8)
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return folder
    }

    @Test func catalogDocumentIsGeneratedFromTheRuns() async throws {
        let scratch = try Scratch("cli-catalog")
        let folder = try Self.folder(scratch, catalog: Self.catalog,
                                     files: ["b01-copy-main-file.yaml": Self.bug, "b01-copy-main-file-correct.yaml": Self.correct])
        let out = scratch.path("docs/real-bugs.md")
        let code = await LifeboatMain.run(["run", folder.path, "--seeds", "1-2", "--catalog", out.path,
                                           "--reports", scratch.path("reports").path, "--scratch", scratch.path("s").path])
        #expect(code == 0)
        let text = try String(contentsOf: out, encoding: .utf8)
        #expect(text.contains("**1 of 2 entries reproduced**"), "\(text)")
        #expect(text.contains("| B1 | [Copy without the -wal](https://example.org/report/1) | [`b01-copy-main-file`](../bugs/b01-copy-main-file.yaml) | 2/2 | `wal-content-carried` |"), "\(text)")
        #expect(text.contains("[`b01-copy-main-file-correct`](../bugs/b01-copy-main-file-correct.yaml): 2/2"), "\(text)")
        #expect(text.contains("| B2 | [Something not reproduced](https://example.org/report/2) | — | **not reproduced** | — | — | tool 1.2 |"), "\(text)")
        #expect(text.contains("- **B2** Something not reproduced: needs a machine we do not have"), "\(text)")
        let (suite, summary) = try CampaignCommandTests.suite(scratch.path("reports"))
        #expect(summary.entries.count == 4 && summary.outcome.code == 0)
        #expect(FileManager.default.fileExists(atPath: suite.appendingPathComponent("catalog.md").path))
    }

    @Test func badCatalogOrUnnamedScenarioIsBadInput() async throws {
        let scratch = try Scratch("cli-catalog-bad")
        let typo = try Self.folder(scratch, catalog: Self.catalog.replacingOccurrences(of: "fixed_in", with: "fixed_on"),
                                   files: ["b01-copy-main-file.yaml": Self.bug])
        let arguments = ["--seeds", "1", "--catalog", scratch.path("out.md").path, "--reports", scratch.path("r").path]
        #expect(await LifeboatMain.run(["run", typo.path] + arguments) == 2)
        try Self.catalog.write(to: typo.appendingPathComponent("_catalog.yaml"), atomically: true, encoding: .utf8)
        try Self.bug.write(to: typo.appendingPathComponent("copy.yaml"), atomically: true, encoding: .utf8)
        #expect(await LifeboatMain.run(["run", typo.path] + arguments) == 2)
        #expect(!FileManager.default.fileExists(atPath: scratch.path("out.md").path))
        #expect(throws: ScenarioError.self) { try BugCatalog.parse(file: typo.appendingPathComponent("missing.yaml")) }
    }
}
