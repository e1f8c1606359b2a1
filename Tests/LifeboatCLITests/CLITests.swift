import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import StoreCheck
import StoreModel
import Strategies
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

/// The crash point "during a copy at page N": the strategy child stops after exactly N pages, says so in the
/// marker file, and stays there until it is killed, with nothing committed at the destination.
@Suite struct HoldAtPageTests {
    @Test(arguments: ["backup-api", "file-copy"])
    func copyHoldsAtTheExactPage(_ strategy: String) throws {
        let scratch = try Scratch("cli-hold")
        let live = try scratch.store(objects: 600)
        let marker = scratch.path("held")
        var options = StrategyOptions()
        options.pagesPerStep = 16
        options.hold = SQLiteBackup.Hold(page: 37, marker: marker.path)
        let config = scratch.path("step.json")
        try JSONEncoder().encode(StrategyRun(action: .backup, strategy: strategy, source: live.path, destination: scratch.path("b").path,
                                             options: options)).write(to: config)
        let process = Process()
        process.executableURL = try LifeboatExecutable.locate()
        process.arguments = ["step", "--config", config.path]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: marker.path), process.isRunning, Date() < deadline { usleep(5_000) }
        let held = try String(contentsOf: marker, encoding: .utf8).split(separator: " ")
            .compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
        #expect(held.first == 37, "\(held)")
        #expect((held.last ?? 0) > 37, "the store has more pages than the hold point: \(held)")
        usleep(200_000)
        #expect(process.isRunning, "the child must wait at the hold point to be killed")
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        let backup = scratch.path("b/Library.sqlite")
        if strategy == "backup-api" {
            // Killed mid-copy: the destination transaction never committed, so the backup holds no objects.
            let report = try? StoreVerifier.verify(backup)
            #expect(report.map { $0.objectCounts.values.reduce(0, +) == 0 } ?? true)
        } else {
            // The file copy stopped after exactly 37 pieces of 4 KiB.
            #expect(StoreFiles.size(backup) == Int64(37 * FileCopy.holdPageSize))
        }
    }

    @Test func aStepConfigThatIsNotOneIsBadInput() async throws {
        let scratch = try Scratch("cli-step-config")
        let config = scratch.path("step.json")
        try Data("{\"action\": \"backup\"}".utf8).write(to: config)
        #expect(await LifeboatMain.run(["step", "--config", config.path]) == 2)
        #expect(await LifeboatMain.run(["step", "--config", scratch.path("missing.json").path]) == 2)
        // An unknown strategy in a well-formed configuration is bad input too, never a finding.
        try JSONEncoder().encode(StrategyRun(action: .backup, strategy: "no-such-strategy", source: "/tmp/a.sqlite", destination: "/tmp/b",
                                             options: StrategyOptions())).write(to: config)
        #expect(await LifeboatMain.run(["step", "--config", config.path]) == 2)
    }
}

/// `lifeboat replay` exits 0 only when every replay shows the verdict the repro records.
@Suite struct ReplayCommandTests {
    static func scenario(expect: String) -> String {
        """
        name: replay-\(expect.replacingOccurrences(of: " ", with: "-"))
        seed: 5
        scheduler: turns
        store: {objects: 40, blob_fraction: 0}
        writers: {count: 2, transactions: 15, blob_fraction: 0}
        schedule:
          - {backup: migrate, after_commits: 10, destination: reuse, times: 2, every_commits: 5}
        invariants: [no-duplicates]
        expect: \(expect)
        """
    }

    @Test func replayChecksTheVerdictEveryTime() async throws {
        let scratch = try Scratch("cli-replay")
        let reproducing = scratch.path("dup.yaml"), wrong = scratch.path("wrong.yaml")
        try Self.scenario(expect: "violation no-duplicates").write(to: reproducing, atomically: true, encoding: .utf8)
        try Self.scenario(expect: "pass").write(to: wrong, atomically: true, encoding: .utf8)
        let common = ["--times", "2", "--reports", scratch.path("reports").path, "--scratch", scratch.path("s").path]
        #expect(await LifeboatMain.run(["replay", reproducing.path] + common) == 0)
        #expect(await LifeboatMain.run(["replay", wrong.path] + common) == 1)
        #expect(await LifeboatMain.run(["replay", scratch.path("missing.yaml").path]) == 2)
    }
}
