import Foundation
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Strategies
import Testing

/// Restores and relocations: the naive one is caught, the documented ones give back exactly the backup.
@Suite struct RestorePitfallTests {
    /// A live store that moved on after the backup, with its -wal still holding commits (an app that was killed).
    func liveWithStaleWAL(_ scratch: Scratch, backupOf: URL) throws -> URL {
        let live = try scratch.store("live2/Library.sqlite", objects: 30, seed: 5)
        let app = try OpenApp(live)
        try app.insertNotes(20)
        let wal = try Data(contentsOf: StoreFiles(live).wal)
        try app.close()
        try wal.write(to: StoreFiles(live).wal)
        return live
    }

    @Test func fileCopyOverAStaleWALIsDetected() throws {
        let scratch = try Scratch("copy-over")
        let original = try scratch.store(objects: 30)
        let backup = scratch.path("b/Library.sqlite")
        try PersistentStoreCoordinator(model: .library).replace(at: backup, from: original)
        let live = try liveWithStaleWAL(scratch, backupOf: backup)
        _ = try StrategyCatalog.restore(named: "file-copy-over").restore(backup: backup, over: live, model: .library, options: StrategyOptions())
        let report = try StoreComparison.compare(live, against: backup)
        #expect(report.hasViolations)
    }

    @Test(arguments: ["destroy-then-migrate", "replace-then-readd"])
    func documentedRestoresGiveBackTheBackup(_ name: String) throws {
        let scratch = try Scratch("restore-\(name)")
        let original = try scratch.store(objects: 30, blobFraction: 0.3, blobSize: 110_000)
        let backup = scratch.path("b/Library.sqlite")
        try PersistentStoreCoordinator(model: .library).replace(at: backup, from: original)
        let live = try liveWithStaleWAL(scratch, backupOf: backup)
        _ = try StrategyCatalog.restore(named: name).restore(backup: backup, over: live, model: .library, options: StrategyOptions())
        let report = try StoreComparison.compare(live, against: backup)
        #expect(!report.hasViolations, "\(name): \(report.findings)")
    }

    @Test func relocateMigrateDuplicatesIntoAnExistingStoreRelocateReplaceDoesNot() throws {
        let scratch = try Scratch("relocate")
        for name in ["relocate-migrate", "relocate-replace"] {
            let old = try scratch.store("\(name)/old/Library.sqlite", objects: 20)
            let reference = scratch.path("\(name)/reference/Library.sqlite")
            try PersistentStoreCoordinator(model: .library).replace(at: reference, from: old)
            // The App Group location already has the same data (a first attempt, or a sync that got there first).
            let new = scratch.path("\(name)/group/Library.sqlite")
            try PersistentStoreCoordinator(model: .library).replace(at: new, from: old)
            _ = try StrategyCatalog.relocation(named: name).relocate(from: old, to: new, model: .library, options: StrategyOptions())
            let report = try StoreComparison.compare(new, against: reference)
            if name == "relocate-migrate" {
                #expect(report.count(.duplicateIdentity) == 20)
            } else {
                #expect(!report.hasViolations, "\(report.findings)")
                #expect(StoreFiles.size(old) == 0, "the old store is destroyed")
            }
        }
    }
}
