import Foundation
import LifeboatTestSupport
import PropertyBased
import StoreCheck
import StoreModel
import Strategies
import Testing

/// Over random object graphs (objects, links, attachments inline and external, commits left in the -wal),
/// replace and backup-api always give a backup that `check --against` finds equal to the live store.
@Suite struct StrategyProperties {
    /// One case: a generated store, `walCommits` more notes committed by an open app, a backup, a comparison.
    static func backupEqualsLive(_ name: String, objects: Int, blobPercent: Int, walCommits: Int, seed: Int) throws {
        let scratch = try Scratch("prop-\(name)")
        let live = try scratch.store(objects: objects, blobFraction: Double(blobPercent) / 100,
                                     blobSize: 90_000 + seed % 30_000, seed: UInt64(seed))
        let app = try OpenApp(live)
        try app.insertNotes(walCommits, attachmentSize: seed % 2 == 0 ? 101_000 : 500, seed: UInt64(seed))
        let outcome = try StrategyCatalog.backup(named: name).backup(live: live, into: scratch.path("b"), model: .library,
                                                                     options: StrategyOptions())
        let report = try StoreComparison.compare(URL(fileURLWithPath: outcome.store), against: live)
        try app.close()
        #expect(!report.hasViolations, "\(name) objects=\(objects) blobs=\(blobPercent)% wal=\(walCommits): \(report.findings.prefix(3))")
    }

    @Test(arguments: ["replace", "backup-api"])
    func backupEqualsLiveStore(_ name: String) async throws {
        await propertyCheck(count: 12, input: Gen.int(in: 1...120), Gen.int(in: 0...100), Gen.int(in: 0...8),
                            Gen.int(in: 0...1_000_000)) { objects, blobPercent, walCommits, seed in
            try Self.backupEqualsLive(name, objects: objects, blobPercent: blobPercent, walCommits: walCommits, seed: seed)
        }
    }

    /// Found by the property in CI: the test's app drew its notes' identities from the generator's own stream
    /// (same seed), so the live store held one identity twice before any backup ran. Kept as a fixed case.
    @Test func theAppsNotesNeverReuseTheGeneratorsIdentities() throws {
        try Self.backupEqualsLive("backup-api", objects: 17, blobPercent: 0, walCommits: 6, seed: 830_995)
    }
}
