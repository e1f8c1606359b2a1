import Foundation
import SeededRandomness
import StoreCheck
import StoreModel
import Strategies

/// The default drill: every backup strategy against one live store that has committed transactions still in its
/// -wal and attachments in `_EXTERNAL_DATA`, then every restore strategy, each checked with the store checker.
///
/// Each case carries the verdict the facts predict (file-copy loses WAL content, file-copy-all forgets blobs,
/// migrate into a used backup duplicates, a naive restore over a stale -wal corrupts); the drill passes when
/// every case shows exactly its expected verdict, so it fails both when a pitfall stops showing and when a
/// correct strategy breaks.
public struct StrategyMatrix: Sendable {
    public struct Case: Sendable, Codable {
        public var name: String
        public var operation: String
        public var expected: String
        public var actual: String
        public var findings: [String]
        public var seconds: Double
        public var details: [String: String]
        public var matches: Bool { expected == actual }
    }

    public struct Result: Sendable, Codable {
        public var schema = "lifeboat.matrix/1"
        public var runID: String
        public var seed: UInt64
        public var objects: Int
        public var walTransactions: Int
        public var cases: [Case]
        public var passed: Bool { cases.allSatisfy(\.matches) }
    }

    public var objects = 400
    public var walTransactions = 40
    public var seed: UInt64 = 1

    public init(objects: Int = 400, walTransactions: Int = 40, seed: UInt64 = 1) {
        self.objects = objects
        self.walTransactions = walTransactions
        self.seed = seed
    }

    /// Which strategies the facts say must fail here, and how.
    static let expectedBackup: [String: String] = [
        "file-copy": "violation", "file-copy-all": "violation",
    ]

    public func run(scratch: URL, runID: String, progress: (String) -> Void = { _ in }) throws -> Result {
        let model = ManagedObjectModel.library
        let live = scratch.appendingPathComponent("live/Library.sqlite")
        try StoreGenerator(objects: objects, blobFraction: 0.25, blobSize: 128 * 1024, seed: seed).generate(at: live)
        // The app keeps its store open: commits made now stay in the -wal (no checkpoint) while backups run.
        var options = StoreOptions()
        options.synchronous = .full
        let app = try PersistentStore(at: live, model: model, options: options)
        defer { try? app.close() }
        try app.withConnection { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        try commitWALTransactions(app)
        var cases: [Case] = []
        for strategy in StrategyCatalog.backups where strategy.name != "command" {
            progress("backup \(strategy.name)")
            let directory = scratch.appendingPathComponent("backups/\(strategy.name)")
            cases.append(check(name: strategy.name, operation: "backup", expected: Self.expectedBackup[strategy.name] ?? "pass",
                               store: strategy.backupStore(for: live, in: directory), against: live) {
                try strategy.backup(live: live, into: directory, model: model, options: StrategyOptions())
            })
        }
        // Migrate again into the same backup: appended, so every object is there twice.
        let migrate = try StrategyCatalog.backup(named: "migrate")
        let migrateDirectory = scratch.appendingPathComponent("backups/migrate")
        progress("backup migrate (again, same destination)")
        cases.append(check(name: "migrate-into-existing", operation: "backup", expected: "violation",
                           store: migrate.backupStore(for: live, in: migrateDirectory), against: live) {
            try migrate.backup(live: live, into: migrateDirectory, model: model, options: StrategyOptions())
        })
        try app.close()
        cases += try restoreCases(scratch: scratch, model: model, progress: progress)
        return Result(runID: runID, seed: seed, objects: objects, walTransactions: walTransactions, cases: cases)
    }

    /// Inserts, updates and deletes that commit into the -wal: what a plain file copy of the .sqlite loses.
    func commitWALTransactions(_ store: PersistentStore) throws {
        var random = SeededRandom(seed: seed &+ 7)
        let notes = try store.objects("Note")
        for index in 0..<walTransactions {
            try store.save { context in
                switch index % 3 {
                case 0:
                    var note = StoreGenerator.note(serial: 100_000 + index, random: &random, folders: [], tags: [])
                    note.attributes["attachment"] = .binary(Data(random.bytes(120 * 1024)))
                    try context.insert(note)
                case 1:
                    let target = notes[index % notes.count]
                    try context.update(ManagedObject(entity: "Note", id: target.id, attributes: ["title": .string("edited \(index)")]))
                default:
                    try context.delete(entity: "Note", id: notes[(index * 7) % notes.count].id)
                }
            }
        }
    }

    /// Each restore strategy puts a good backup (made by replace) back over a live store that has moved on.
    func restoreCases(scratch: URL, model: ManagedObjectModel, progress: (String) -> Void) throws -> [Case] {
        let backup = scratch.appendingPathComponent("backups/replace/Library.sqlite")
        var cases: [Case] = []
        for strategy in StrategyCatalog.restores where strategy.name != "command" {
            progress("restore \(strategy.name)")
            let live = scratch.appendingPathComponent("restore-\(strategy.name)/Library.sqlite")
            try StoreGenerator(objects: objects / 2, blobFraction: 0.25, blobSize: 128 * 1024, seed: seed &+ 99).generate(at: live)
            // Leave the live store's -wal full of commits the backup does not have, as a crashed or running app would.
            let app = try PersistentStore(at: live, model: model)
            try app.withConnection { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
            try commitWALTransactions(app)
            let walCopy = try Self.preserveWAL(StoreFiles(live))
            try app.close()
            try Self.putBack(walCopy, StoreFiles(live))
            let expected = strategy.name == "file-copy-over" ? "violation" : "pass"
            cases.append(check(name: strategy.name, operation: "restore", expected: expected, store: live, against: backup) {
                try strategy.restore(backup: backup, over: live, model: model, options: StrategyOptions())
            })
        }
        return cases
    }

    /// Closing the last connection checkpoints and deletes the -wal; a copy taken before puts it back, as the
    /// -wal of an app that was killed would be.
    static func preserveWAL(_ files: StoreFiles) throws -> Data? {
        FileManager.default.fileExists(atPath: files.wal.path) ? try Data(contentsOf: files.wal) : nil
    }

    static func putBack(_ wal: Data?, _ files: StoreFiles) throws {
        guard let wal else { return }
        try wal.write(to: files.wal)
    }

    /// One line per kind of violation: how many, and the first as an example.
    static func summary(of report: CheckReport) -> [String] {
        Finding.Kind.allCases.compactMap { kind in
            guard let first = report.violations.first(where: { $0.kind == kind }) else { return nil }
            return "\(report.count(kind)) \(kind.rawValue), e.g. \(first.entity ?? "") \(first.object ?? ""): \(first.message)"
        }
    }

    func check(name: String, operation: String, expected: String, store: URL, against: URL,
               _ body: () throws -> StrategyOutcome) -> Case {
        let started = Date()
        do {
            let outcome = try body()
            let report = try StoreComparison.compare(store, against: against)
            return Case(name: name, operation: operation, expected: expected, actual: report.hasViolations ? "violation" : "pass",
                        findings: Self.summary(of: report), seconds: Date().timeIntervalSince(started), details: outcome.details)
        } catch {
            return Case(name: name, operation: operation, expected: expected, actual: "violation",
                        findings: ["operation failed: \(error)"], seconds: Date().timeIntervalSince(started), details: [:])
        }
    }
}
