import ChildProcesses
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Testing

/// `try --sarif` and `--github` end to end: the tutorial's naive script (it copies the database file alone), twice
/// with the same seed. The SARIF file is valid against the OASIS schema, its results are the findings `try`
/// prints, in their order, and its fingerprints are the same in both runs; with GITHUB_ACTIONS=true the binary
/// prints one annotation per finding and appends the step summary.
@Suite struct CIOutputTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The tutorial's first script (docs/tutorial.md, "The script under test").
    static let naive = """
        #!/bin/sh
        # Back up the app's store: copy the database file into the backup folder.
        cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"
        """

    static func sarifResults(_ file: URL) throws -> [[String: Any]] {
        let log = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as? [String: Any])
        let runs = try #require(log["runs"] as? [[String: Any]])
        return try #require(runs.first?["results"] as? [[String: Any]])
    }

    static func validate(_ file: URL) throws -> ChildProcesses.Outcome {
        let python = root.appendingPathComponent(".venv/bin/python")
        #expect(FileManager.default.isExecutableFile(atPath: python.path), "no .venv: run scripts/setup.sh")
        return try ChildProcesses.run(ChildSpec(name: "validate-sarif", executable: python.path,
                                                arguments: [root.appendingPathComponent("scripts/validate-sarif.py").path, file.path]), timeout: 120)
    }

    @Test func tryWritesValidSARIFWhoseResultsAreThePrintedFindingsWithStableFingerprints() async throws {
        let scratch = try Scratch("try-sarif")
        let backup = scratch.path("my-backup.sh")
        try (Self.naive + "\n").write(to: backup, atomically: true, encoding: .utf8)
        var fingerprints: [[String]] = []
        for attempt in 1...2 {
            let reports = scratch.path("reports-\(attempt)")
            let sarif = scratch.path("try-\(attempt).sarif")
            let code = await LifeboatMain.run(["try", "--backup", "sh \(backup.path)", "--situations", "idle,live-wal", "--seeds", "1",
                                               "--sarif", sarif.path, "--reports", reports.path, "--scratch", scratch.path("scratch").path])
            #expect(code == 1)
            let validation = try Self.validate(sarif)
            #expect(validation.termination.exitCode == 0, "\(validation.output)")
            let results = try Self.sarifResults(sarif)
            // The findings `try` printed, in their order: "1. wal-content-carried: ...".
            let (folder, result) = try TryCommandTests.latest(reports)
            let printed = TryProgram.lines(result, skipped: [], matrix: folder).compactMap { line -> String? in
                guard let match = line.firstMatch(of: /^\d+\.\s+([a-z-]+):/) else { return nil }
                return String(match.1)
            }
            #expect(!printed.isEmpty)
            let program = results.filter { ($0["properties"] as? [String: Any])?["appsOwn"] == nil }
            #expect(program.map { $0["ruleId"] as? String ?? "" } == printed)
            #expect(program.allSatisfy { ($0["level"] as? String) != nil && ($0["message"] as? [String: Any])?["text"] as? String != nil })
            let uri = ((program.first?["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any])
                .flatMap { ($0["artifactLocation"] as? [String: Any])?["uri"] as? String }
            #expect(uri?.hasSuffix("my-backup.sh") == true)
            fingerprints.append(results.compactMap { ($0["partialFingerprints"] as? [String: String])?["lifeboatFinding/v1"] })
        }
        #expect(fingerprints[0].count == fingerprints[1].count && !fingerprints[0].isEmpty)
        #expect(fingerprints[0] == fingerprints[1])
    }

    /// The binary itself, with GITHUB_ACTIONS=true as a runner sets it: every annotation on stdout, the step
    /// summary appended to $GITHUB_STEP_SUMMARY naming each finding (the 10-annotation cap and the 1 MiB cut are
    /// the renderer's, tested in CIReportTests with fifteen findings).
    @Test func underGitHubActionsTheBinaryAnnotatesAndWritesTheStepSummary() throws {
        let scratch = try Scratch("try-github")
        let backup = scratch.path("my-backup.sh")
        try (Self.naive + "\n").write(to: backup, atomically: true, encoding: .utf8)
        let summary = scratch.path("step-summary.md")
        try Data("earlier step\n".utf8).write(to: summary)
        let lifeboat = try LifeboatExecutable.locate()
        let outcome = try ChildProcesses.run(ChildSpec(
            name: "lifeboat-try", executable: lifeboat.path,
            arguments: ["try", "--backup", "sh \(backup.path)", "--situations", "live-wal", "--reports", scratch.path("reports").path,
                        "--scratch", scratch.path("scratch").path],
            environment: ["GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": summary.path]), timeout: 600)
        #expect(outcome.termination.exitCode == 1, "\(outcome.output)")
        let annotations = outcome.output.split(separator: "\n").filter { $0.hasPrefix("::error ") || $0.hasPrefix("::warning ") }
        #expect(!annotations.isEmpty && annotations.count <= 10)
        #expect(annotations.first?.contains("wal-content-carried") == true)
        #expect(annotations.allSatisfy { $0.contains("repro: lifeboat replay ") })
        let text = try String(contentsOf: summary, encoding: .utf8)
        #expect(text.hasPrefix("earlier step\n## Lifeboat: "))
        #expect(text.contains("live-wal") && text.contains("`wal-content-carried`"))
        #expect(text.utf8.count < 1 << 20)
    }
}

/// `run --sarif` on the scenario files `try --save` wrote: the finding's locations are the program's copy beside
/// them and the scenario file at the line of its backup step; one result for the scenario over both seeds.
@Suite struct RunSARIFTests {
    @Test func runWritesTheScenarioFileAndItsStepLine() async throws {
        let scratch = try Scratch("run-sarif")
        let backup = scratch.path("my-backup.sh")
        try (CIOutputTests.naive + "\n").write(to: backup, atomically: true, encoding: .utf8)
        let saved = scratch.path("ci")
        #expect(await LifeboatMain.run(["try", "--backup", "sh \(backup.path)", "--situations", "live-wal", "--save", saved.path,
                                        "--reports", scratch.path("try-reports").path, "--scratch", scratch.path("scratch").path]) == 1)
        let sarif = scratch.path("run.sarif")
        #expect(await LifeboatMain.run(["run", saved.path, "--seeds", "1-2", "--sarif", sarif.path, "--reports", scratch.path("reports").path,
                                        "--scratch", scratch.path("scratch").path]) == 1)
        let validation = try CIOutputTests.validate(sarif)
        #expect(validation.termination.exitCode == 0, "\(validation.output)")
        let results = try CIOutputTests.sarifResults(sarif)
        let carried = try #require(results.first { $0["ruleId"] as? String == "wal-content-carried" })
        #expect(results.filter { $0["ruleId"] as? String == "wal-content-carried" }.count == 1)
        #expect((carried["properties"] as? [String: Any])?["place"] as? String == "try-live-wal (seeds 1, 2)")
        let locations = try #require(carried["locations"] as? [[String: Any]])
        func uri(_ location: [String: Any]) -> String? {
            ((location["physicalLocation"] as? [String: Any])?["artifactLocation"] as? [String: Any])?["uri"] as? String
        }
        #expect(locations.count == 2)
        #expect(uri(locations[0])?.hasSuffix("/my-backup.sh") == true)
        #expect(uri(locations[1])?.hasSuffix("ci/try-live-wal.yaml") == true)
        let text = try String(contentsOf: saved.appendingPathComponent("try-live-wal.yaml"), encoding: .utf8)
        let line = try #require(text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.hasPrefix("  - backup:") })
        #expect(((locations[1]["physicalLocation"] as? [String: Any])?["region"] as? [String: Any])?["startLine"] as? Int == line + 1)
    }
}
