import Foundation
import LifeboatCLI
import LifeboatTestSupport
import StoreModel
import Testing

/// The commands' exit codes: 0 ok, 1 violation, 2 bad input, never a crash.
@Suite struct CLITests {
    @Test func generateThenCheckIsClean() async throws {
        let scratch = try Scratch("cli-generate")
        #expect(await LifeboatMain.run(["generate", "--objects", "120", "--blob-fraction", "0.3", "--blob-size", "110KiB", "--out", scratch.path("g").path]) == 0)
        let store = scratch.path("g/Library.sqlite").path
        #expect(await LifeboatMain.run(["check", store]) == 0)
        #expect(await LifeboatMain.run(["check", store, "--against", store, "--json"]) == 0)
        // Generating over an existing store without --append is refused, and nothing is touched.
        #expect(await LifeboatMain.run(["generate", "--objects", "5", "--out", scratch.path("g").path]) == 2)
    }

    @Test func violationsExitOne() async throws {
        let scratch = try Scratch("cli-violation")
        let live = try scratch.store(objects: 40, blobFraction: 0.5, blobSize: 110_000)
        let files = StoreFiles(live)
        try FileManager.default.removeItem(at: files.externalFile(files.externalFileNames()[0]))
        #expect(await LifeboatMain.run(["check", live.path]) == 1)
        let other = try scratch.store("other/Library.sqlite", objects: 10, seed: 2)
        #expect(await LifeboatMain.run(["check", other.path, "--against", try scratch.store("third/Library.sqlite", objects: 10, seed: 3).path]) == 1)
    }

    @Test func badInputExitsTwo() async throws {
        #expect(await LifeboatMain.run(["check", "/nonexistent/store.sqlite"]) == 2)
        #expect(await LifeboatMain.run(["check"]) == 2)
        #expect(await LifeboatMain.run(["no-such-command"]) == 2)
        #expect(await LifeboatMain.run(["generate", "--objects", "-3", "--out", "/tmp/x"]) == 2)
        #expect(await LifeboatMain.run(["generate", "--blob-size", "lots", "--out", "/tmp/x"]) == 2)
        #expect(await LifeboatMain.run(["backup", "--strategy", "teleport", "/tmp/a.sqlite", "/tmp/b"]) == 2)
        #expect(await LifeboatMain.run(["--help"]) == 0)
    }

    @Test func backupAndRestoreCommandsRunStrategies() async throws {
        let scratch = try Scratch("cli-ops")
        let live = try scratch.store(objects: 30)
        #expect(await LifeboatMain.run(["backup", "--strategy", "replace", live.path, scratch.path("b").path]) == 0)
        let backup = scratch.path("b/Library.sqlite").path
        #expect(await LifeboatMain.run(["check", backup, "--against", live.path]) == 0)
        #expect(await LifeboatMain.run(["restore", "--strategy", "replace-then-readd", backup, live.path]) == 0)
        #expect(await LifeboatMain.run(["relocate", "--strategy", "relocate-replace", live.path, scratch.path("group/Library.sqlite").path]) == 0)
        // A strategy that fails is a finding (exit 1), not a crash.
        #expect(await LifeboatMain.run(["backup", "--strategy", "command", "--command", "exit 4", live.path, scratch.path("c").path]) == 1)
    }

    @Test func strategiesListsEveryName() async throws {
        #expect(await LifeboatMain.run(["strategies"]) == 0)
    }

    @Test func drillShowsEveryExpectedVerdictAndWritesAReport() async throws {
        let scratch = try Scratch("cli-drill")
        let reports = scratch.path("reports")
        #expect(await LifeboatMain.run(["drill", "--objects", "120", "--wal-transactions", "9", "--reports", reports.path,
                                        "--scratch", scratch.path("s").path]) == 0)
        let latest = reports.appendingPathComponent("latest")
        let json = try Data(contentsOf: latest.appendingPathComponent("report.json"))
        let object = try JSONSerialization.jsonObject(with: json) as? [String: Any]
        let cases = object?["cases"] as? [[String: Any]] ?? []
        #expect(cases.count == 12)
        #expect(cases.allSatisfy { $0["expected"] as? String == $0["actual"] as? String })
        #expect(FileManager.default.fileExists(atPath: latest.appendingPathComponent("report.md").path))
    }
}
