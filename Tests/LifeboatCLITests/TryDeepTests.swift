import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat try --deep` on the naive programs of `Tests/Fixtures/Deep` (issue 29): each is caught with the
/// program's call named and a repro, within a budget that keeps the test short; bad input exits 2.
@Suite(.serialized, .ownThread) struct TryDeepTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Deep")

    /// The summary `try --deep` wrote for seed 1 of the latest try.
    static func summary(_ reports: URL) throws -> [String: Any] {
        let folder = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        let data = try Data(contentsOf: folder.appendingPathComponent("deep-seed1/deep.json"))
        return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    }

    @Test func aBackupRenamedIntoPlaceWithoutAFolderSyncIsCaughtAtTheRename() async throws {
        let scratch = try Scratch("deep-rename")
        let reports = scratch.path("reports")
        let script = Self.fixtures.appendingPathComponent("backup-rename-no-folder-sync.sh").path
        let code = await LifeboatMain.run(["try", "--deep", "--budget", "60s", "--backup", "sh \(script)",
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        #expect(code == 1)
        let summary = try Self.summary(reports)
        let findings = try #require(summary["findings"] as? [[String: Any]])
        let durable = findings.filter { ($0["violated"] as? [String])?.contains("backup-durable") == true }
        #expect(!durable.isEmpty, "\(findings)")
        #expect(durable.contains { ($0["cause"] as? String)?.contains("rename") == true }, "the cause names the rename the crash dropped: \(durable)")
        for finding in durable {
            let repro = try #require(finding["repro"] as? String)
            #expect(FileManager.default.fileExists(atPath: repro))
        }
        let calls = try #require(summary["calls"] as? [String: [String: Int]])
        #expect((calls["backup"]?["rename"] ?? 0) >= 1, "the probe counted the program's rename")
    }

    /// REAL-BUGS.md B2: the database, then its -wal, copied with no lock. The deep search holds each of the
    /// script's opens of the store's files while the app commits, checkpoints and commits again, so when the open
    /// of the -wal is held the two copies come from different moments (seed 1 here; seeds 1-3 in
    /// docs/performance.md), and the repro records the interleaving (the hold rule and its `while_held`).
    @Test func aCopyOfTheDatabaseThenItsWalWithNoLockIsCaughtByAnInterleaving() async throws {
        let scratch = try Scratch("deep-b2")
        let reports = scratch.path("reports")
        let script = Self.fixtures.appendingPathComponent("backup-db-then-wal-no-lock.sh").path
        let code = await LifeboatMain.run(["try", "--deep", "--budget", "150s", "--backup", "sh \(script)",
                                           "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        #expect(code == 1)
        let findings = try #require(try Self.summary(reports)["findings"] as? [[String: Any]])
        let interleaved = findings.filter { ($0["walk"] as? String)?.contains("+checkpoint-") == true }
        #expect(!interleaved.isEmpty, "\(findings)")
        // Held up at its open of the database (a checkpoint rewrites it while it is copied) or of the -wal (a
        // commit or checkpoint lands between the two copies): either is the script's own open of the store.
        #expect(interleaved.allSatisfy { ($0["operation"] as? String)?.hasPrefix("open /Library.sqlite") == true }, "\(interleaved)")
        let repro = try #require(interleaved.first?["repro"] as? String)
        let text = try String(contentsOfFile: repro, encoding: .utf8)
        #expect(text.contains("action: \"hold\"") && text.contains("while_held: [") && text.contains("scheduler: turns"),
                "the repro carries the interleaving: \(text)")
        // Exact: the held open is the script's copy of the -wal (after the database was copied), in every run.
        #expect(interleaved.contains { ($0["operation"] as? String)?.hasPrefix("open /Library.sqlite-wal") == true }, "\(interleaved)")
    }

    @Test func badInputExitsTwo() async throws {
        let scratch = try Scratch("deep-bad")
        let reports = scratch.path("reports").path
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--budget", "1m", "--reports", reports]) == 2, "--budget without --deep")
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--deep", "--budget", "soon", "--reports", reports]) == 2)
        #expect(await LifeboatMain.run(["try", "--backup", "true", "--deep", "--situations", "idle", "--reports", reports]) == 2)
    }
}
