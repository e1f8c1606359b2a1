import Foundation
import GRDB
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Strategies
import Testing

/// Each documented pitfall of a backup strategy shows, and the checker names what was lost.
@Suite struct BackupPitfallTests {
    func backup(_ name: String, _ live: URL, into directory: URL, options: StrategyOptions = StrategyOptions()) throws -> URL {
        let strategy = try StrategyCatalog.backup(named: name)
        return URL(fileURLWithPath: try strategy.backup(live: live, into: directory, model: .library, options: options).store)
    }

    @Test func fileCopyLosesCommitsStillInTheWALAndCheckNamesThem() throws {
        let scratch = try Scratch("file-copy-wal")
        let live = try scratch.store(objects: 30)
        let app = try OpenApp(live)
        let walOnly = try app.insertNotes(6)
        let copy = try backup("file-copy", live, into: scratch.path("b"))
        let report = try StoreComparison.compare(copy, against: live)
        try app.close()
        let missing = Set(report.findings.filter { $0.kind == .missingObject }.compactMap(\.object))
        #expect(missing == Set(walOnly.map(\.uuidString)))
    }

    @Test func fileCopyAllKeepsWALCommits() throws {
        let scratch = try Scratch("file-copy-all")
        let live = try scratch.store(objects: 30)
        let app = try OpenApp(live)
        try app.insertNotes(6)
        let copy = try backup("file-copy-all", live, into: scratch.path("b"))
        try app.close()
        let report = try StoreComparison.compare(copy, against: live)
        #expect(!report.hasViolations, "\(report.findings)")
    }

    @Test func fileCopyForgetsBlobsAndCheckNamesTheFiles() throws {
        let scratch = try Scratch("file-copy-blobs")
        let live = try scratch.store(objects: 40, blobFraction: 0.4, blobSize: 110_000)
        let copy = try backup("file-copy-all", live, into: scratch.path("b"))
        let report = try StoreVerifier.verify(copy)
        let names = Set(StoreFiles(live).externalFileNames())
        let reported = report.findings.filter { $0.kind == .missingExternalFile }
        #expect(report.count(.missingExternalFile) == names.count)
        #expect(reported.allSatisfy { finding in names.contains { finding.message.contains($0) } })
    }

    @Test(arguments: ["file-copy-full", "migrate", "replace", "backup-api", "vacuum-into", "sqlite3-cli"])
    func correctStrategiesCarryWALContentAndBlobs(_ name: String) throws {
        let scratch = try Scratch("correct-\(name)")
        let live = try scratch.store(objects: 40, blobFraction: 0.3, blobSize: 110_000)
        let app = try OpenApp(live)
        try app.insertNotes(4, attachmentSize: 105_000)
        let copy = try backup(name, live, into: scratch.path("b"))
        let report = try StoreComparison.compare(copy, against: live)
        try app.close()
        #expect(!report.hasViolations, "\(name): \(report.findings)")
    }

    @Test func migrateTwiceIntoTheSameBackupDuplicatesReplaceDoesNot() throws {
        let scratch = try Scratch("twice")
        let live = try scratch.store(objects: 25)
        for name in ["migrate", "replace"] {
            let directory = scratch.path("b-\(name)")
            _ = try backup(name, live, into: directory)
            let copy = try backup(name, live, into: directory)
            let report = try StoreVerifier.verify(copy)
            #expect(report.count(.duplicateIdentity) == (name == "migrate" ? 25 : 0), "\(name)")
        }
    }

    @Test func vacuumIntoRefusesANonEmptyDestination() throws {
        let scratch = try Scratch("vacuum")
        let live = try scratch.store(objects: 10)
        _ = try backup("vacuum-into", live, into: scratch.path("b"))
        #expect(throws: StoreError.self) { try backup("vacuum-into", live, into: scratch.path("b")) }
    }

    /// A writer in another connection that commits until stopped, or `limit` times.
    func startWriter(_ live: URL, limit: Int, stop: Flag) -> Thread {
        let writer = Thread {
            guard let app = try? OpenApp(live) else { return }
            var serial = 0
            while !stop.isSet, serial < limit {
                _ = try? app.insertNotes(1, seed: UInt64(serial))
                serial += 1
                usleep(2_000)
            }
            try? app.close()
        }
        writer.start()
        return writer
    }

    @Test func backupAPIRestartsAreCountedUnderConcurrentWrites() throws {
        let scratch = try Scratch("restarts")
        let live = try scratch.store(objects: 600)
        let stop = Flag()
        let writer = startWriter(live, limit: 40, stop: stop)
        defer { stop.set(); while !writer.isFinished { usleep(1000) } }
        var options = StrategyOptions()
        options.pagesPerStep = 2
        options.stepDelay = 0.002
        options.maxRestarts = 100_000
        let outcome = try StrategyCatalog.backup(named: "backup-api").backup(live: live, into: scratch.path("b"), model: .library, options: options)
        #expect(Int(outcome.details["restarts"] ?? "0")! > 0, "\(outcome.details)")
        #expect(!(try StoreVerifier.verify(URL(fileURLWithPath: outcome.store))).hasViolations)
    }

    @Test func backupAPIUnderSteadyWritesNeverFinishes() throws {
        let scratch = try Scratch("never")
        let live = try scratch.store(objects: 600)
        let stop = Flag()
        let writer = startWriter(live, limit: .max, stop: stop)
        defer { stop.set(); while !writer.isFinished { usleep(1000) } }
        var options = StrategyOptions()
        options.pagesPerStep = 1
        options.stepDelay = 0.003
        options.maxRestarts = 15
        #expect(throws: StoreError.self) {
            try StrategyCatalog.backup(named: "backup-api").backup(live: live, into: scratch.path("b"), model: .library, options: options)
        }
    }

    @Test func commandStrategyGetsTheDocumentedEnvironment() throws {
        let scratch = try Scratch("command")
        let live = try scratch.store(objects: 10)
        var options = StrategyOptions()
        options.command = #"sqlite3 "$LIFEBOAT_STORE" ".backup '$LIFEBOAT_BACKUP_DIR/Library.sqlite'""#
        let copy = try backup("command", live, into: scratch.path("b"), options: options)
        #expect(copy.path == scratch.path("b/Library.sqlite").path)
        #expect(!(try StoreComparison.compare(copy, against: live)).hasViolations)
        options.command = "exit 3"
        #expect(throws: CommandError.self) { try backup("command", live, into: scratch.path("c"), options: options) }
    }

    @Test func catalogListsEveryStrategyTheIssueNames() {
        #expect(StrategyCatalog.backups.map(\.name) == ["file-copy", "file-copy-all", "file-copy-full", "migrate", "replace",
                                                        "backup-api", "vacuum-into", "sqlite3-cli", "command"])
        #expect(StrategyCatalog.restores.map(\.name) == ["destroy-then-migrate", "replace-then-readd", "file-copy-over", "command"])
        #expect(StrategyCatalog.relocations.map(\.name) == ["relocate-migrate", "relocate-replace", "relocate-replace-only", "relocate-app-group", "relocate-app-group-cloudkit-on"])
        #expect(throws: UnknownStrategy.self) { try StrategyCatalog.backup(named: "teleport") }
    }
}

/// A thread-safe stop flag for the writer threads in these tests.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    var isSet: Bool { lock.withLock { value } }
    func set() { lock.withLock { value = true } }
}
