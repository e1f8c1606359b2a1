import Checks
@testable import Explore
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import StoreModel
import SeededRandomness
import Testing
import Workload

/// Crash states of a store's first commits (`store: {fresh: true}`) and B15's state, a main file shorter than
/// one page beside a -wal holding committed frames (https://github.com/tursodatabase/turso/pull/4899).
@Suite(.serialized, .ownThread) struct FreshStoreCrashStateTests {
    func settings(_ scratch: Scratch) -> ScenarioRunner.Settings {
        ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
    }

    /// B15's state built by hand: a fresh store made by the store layer (as a writer makes it) with two saves
    /// in its -wal, then a state folder with that -wal beside a 0-byte main file.
    func zeroByteMainBesideWal(_ scratch: Scratch) throws -> (database: URL, wal: Data) {
        let live = scratch.path("live/Library.sqlite")
        let store = try PersistentStore(at: live, model: .library, options: StoreOptions())
        try store.withConnection { try $0.execute(sql: "PRAGMA wal_autocheckpoint = 0") }
        for serial in 0..<2 {
            var random = SeededRandom(seed: UInt64(serial + 1))
            let note = StoreGenerator.note(serial: serial, random: &random, folders: [], tags: [])
            try store.save { try $0.insert(note) }
        }
        let wal = try Data(contentsOf: URL(fileURLWithPath: live.path + "-wal"))
        try store.close()
        let state = scratch.path("state/Library.sqlite")
        try FileManager.default.createDirectory(at: state.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data().write(to: state)
        try wal.write(to: URL(fileURLWithPath: state.path + "-wal"))
        return (state, wal)
    }

    @Test func writeAheadLogCountsTheCommittedFramesAndStopsAtDamage() throws {
        let scratch = try Scratch("wal-read")
        let (_, wal) = try zeroByteMainBesideWal(scratch)
        let log = try #require(WriteAheadLog.read(wal))
        #expect(log.pageSize == 4096)
        // The schema's commit and the two saves.
        #expect(log.commits == 3, "\(log)")
        #expect(log.committedFrames * (24 + log.pageSize) + 32 == wal.count)
        var damaged = wal
        damaged[damaged.count - 100] ^= 0xff
        let cut = try #require(WriteAheadLog.read(damaged))
        #expect(cut.commits == 2, "a frame whose checksum fails ends the log at the commit before it")
        #expect(WriteAheadLog.read(Data(wal.prefix(31))) == nil)
        var badHeader = wal
        badHeader[9] ^= 0x01
        #expect(WriteAheadLog.read(badHeader) == nil)
    }

    /// Opening the state destroys it (SQLite deletes a -wal beside a 0-byte main file), so every check reads a
    /// private copy: after the observation, the fingerprint and the examination the state's files are as built.
    @Test func zeroByteMainBesideValidWalIsSeenJudgedLostAndLeftAsItWas() throws {
        let scratch = try Scratch("short-main")
        let (database, wal) = try zeroByteMainBesideWal(scratch)
        let short = try #require(CrashStateShortMain.observe(database))
        #expect(short.mainBytes == 0 && short.mainExists)
        #expect(short.walCommits == 3)
        #expect(short.tablesAfterOpen == 0, "SQLite opens a 0-byte main file beside a -wal as an empty database")
        #expect(short.walKeptByOpen == false, "and deletes the -wal")
        #expect(short.openError == nil)
        #expect(CrashStateFingerprint.of(database) == nil)
        let history = scratch.path("history")
        try FileManager.default.createDirectory(at: history, withIntermediateDirectories: true)
        let writer = try HistoryWriter(history.appendingPathComponent("writer-1.jsonl"))
        try writer.append(HistoryRecord(writer: 1, seq: 1, state: .intent, t: 1, ops: []))
        try writer.append(HistoryRecord(writer: 1, seq: 1, state: .ack, t: 2))
        let oracle = Oracle(transactions: HistoryReader.transactions(in: history), initial: [:])
        let examination = CrashStateExamination.examine(database, oracle: oracle)
        #expect(examination.shortMain == short)
        #expect(examination.reflected == [CrashStateExamination.Reflected(writer: 1, prefix: 0)])
        let problems = examination.problems(at: 3, acknowledgements: CrashStateAcknowledgements(oracle))
        #expect(problems == ["writer 1: 1 acknowledged before this point, 0 present"])
        #expect(examination.problems(at: 1.5, acknowledgements: CrashStateAcknowledgements(oracle)).isEmpty)
        #expect(StoreFiles.size(database) == 0)
        #expect(try Data(contentsOf: URL(fileURLWithPath: database.path + "-wal")) == wal, "the state's -wal is untouched")
    }

    /// SQLite's own write order on a fresh store (synchronous=FULL), measured on FaultFS: every crash state of
    /// its first operations, from no file at all, is checked, and none has a main file shorter than one page
    /// beside a -wal with committed frames: page 1 of the main file is made durable (through a rollback journal,
    /// by the switch to WAL) before the -wal is even created.
    @Test func freshStoreFirstCommitsNeverLeaveAShortMainBesideAValidWal() throws {
        let scratch = try Scratch("fresh-states")
        var scenario = try ScenarioParser.parse(file: DrillTests.scenarios.appendingPathComponent("fresh-store-first-commits.yaml"))
        scenario.writers.transactions = 12
        let recording = try CrashStateRun.record(scenario, file: "fresh-store-first-commits", settings: settings(scratch))
        defer { recording.remove() }
        #expect(recording.enumerator.start.isEmpty, "the states start from no file at all")
        let records = recording.enumerator.records
        let walCreated = try #require(records.first { $0.op == .create && $0.path == "/Library.sqlite-wal" })
        let pageOne = try #require(records.first { $0.op == .write && $0.path == "/Library.sqlite" && $0.offset == 0 })
        let pageOneDurable = try #require(records.first { ($0.synced ?? []).contains(pageOne.seq) })
        #expect(records.contains { $0.op == .create && $0.path == "/Library.sqlite" && $0.seq < pageOne.seq })
        #expect(records.contains { $0.path == "/Library.sqlite-journal" && $0.seq < pageOne.seq }, "the switch to WAL goes through a rollback journal")
        #expect(pageOneDurable.seq < walCreated.seq, "page 1 is durable before the -wal exists")
        var seen = 0
        let summary = try recording.enumerator.run(scratch: recording.states, maxPoints: 100_000, seed: 1, verdict: { _, _ in seen += 1 })
        let points = records.filter { $0.op.isBarrier && $0.result >= 0 }
            .filter { recording.enumerator.tracked($0.path) || $0.op == .fsyncdir || $0.op == .syncAll }
        #expect(summary.pointsChecked == points.count + 1, "every persistence point and the end of the log")
        #expect(seen == summary.statesChecked && summary.statesChecked > summary.pointsChecked)
        #expect(summary.statesFailed == 0, "\(summary.failures.prefix(2))")
        #expect(summary.shortMain.states == 0, "\(summary.shortMain)")
        let result = try recording.reportStates(summary)
        #expect(result.coverage?.crashStatesShortMain == 0)
        #expect(MarkdownReport.render(result).contains("0 of them had a main file shorter than one page"))
    }

    /// The same walk over B15's restore (it fsyncs the -wal and the directory, never the database file) reaches
    /// the state, sees it on a copy, and fails it: the acknowledged commits are gone.
    @Test func restoreThatSyncsOnlyTheWalReachesShortMainStatesThatLoseCommits() throws {
        let scratch = try Scratch("b15-states")
        let file = RealBugCatalogTests.folder.appendingPathComponent("b15-restore-syncs-only-wal.yaml")
        var scenario = try ScenarioParser.parse(file: file)
        scenario.writers.transactions = 45
        // Writers take turns and wait while the backup program runs, so it copies the -wal the writers still hold
        // open. Free-running, a loaded machine starts the python backup after the writers' last commit, their
        // last connection's close checkpoints and removes the -wal, and the restore then has no -wal to leave
        // beside a short main file (the flake this replaced).
        scenario.scheduler = "turns"
        let recording = try CrashStateRun.record(scenario, file: file.path, settings: settings(scratch))
        defer { recording.remove() }
        let summary = try recording.enumerator.run(scratch: recording.states, maxPoints: 100_000, seed: 1)
        #expect(summary.shortMain.states > 0, "\(summary.shortMain)")
        #expect(summary.shortMain.openedEmpty == summary.shortMain.states)
        #expect(summary.shortMain.walDeleted == summary.shortMain.states)
        #expect(summary.shortMain.failed == summary.shortMain.states)
        #expect(summary.shortMain.first?.contains("opening it showed an empty database, and the -wal was deleted") == true)
    }
}

/// A run that starts with no store: the writers create it together, readers wait for it, backups compare their
/// metadata with the store the writers made, and a restore gives it back.
@Suite(.serialized, .ownThread) struct FreshStoreRunTests {
    @Test func writersCreateTheStoreTogetherAndEveryCheckFindsIt() throws {
        let scratch = try Scratch("fresh-run")
        let scenario = try ScenarioParser.parse(yaml: """
            name: fresh-run
            store: {fresh: true}
            writers: {count: 3, transactions: 120, rate: 60, blob_fraction: 0.1}
            readers: {count: 1, hold: 0.2, every: 0.1}
            schedule:
              - backup: replace
                after_commits: 60
              - restore: replace-then-readd
            # replace copies the support folder apart from the database, so under attachment writers its backup
            # can lack a file (replace-under-attachment-writers' subject, a race): this test is about the fresh store.
            invariants: [live-store-unaffected, reader-consistent, metadata-preserved, restore-equals-backup, integrity, no-duplicates,
                         wal-content-carried, snapshot-consistent, restore-opens]
            expect: pass
            """)
        let (result, _) = try DrillTests.run(scenario, file: "fresh-run.yaml", scratch: scratch)
        let verdicts = Dictionary(uniqueKeysWithValues: result.verdicts.map { ($0.invariant, $0) })
        #expect(result.errors.isEmpty, "\(result.errors)")
        #expect(result.expectationMet, "\(result.verdicts.filter { $0.status == .violated }.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" })")
        for name in ["live-store-unaffected", "reader-consistent", "metadata-preserved", "restore-equals-backup", "integrity"] {
            #expect(verdicts[name]?.status == .held, "\(name): \(verdicts[name]?.summary ?? "not judged")")
        }
    }
}
