import Checks
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing
import Workload

/// `writers.after_restore: continue`, run for real: after a restore new writer processes commit against the
/// restored store, and the second round's backup is held to the restored store plus those commits. A backup
/// program that keeps handing out what it saw before the restore (the replication position of Litestream issue
/// 781, in its plainest form) is caught on the second round; a correct one holds; the rounds' objects never
/// share an identity.
@Suite(.serialized, .ownThread) struct RestoreThenContinueTests {
    /// Two rounds: a backup while the writers commit, a restore once they are done (it takes the store back to
    /// the backup: the commits after it are undone, as the new round's history must say), the writers go on, a
    /// second backup once they are done, a second restore. `backup` is the command line of both backups.
    static func scenario(backup: String, expect: String, scheduler: String = "free") -> String {
        """
        name: continue
        scheduler: \(scheduler)
        store: {objects: 60, blob_fraction: 0}
        writers: {count: 2, transactions: 40, rate: 100, blob_fraction: 0, after_restore: continue}
        schedule:
          - backup: command
            command: '\(backup)'
            after_commits: 30
          - restore: replace-then-readd
            after_writers: true
          - backup: command
            command: '\(backup)'
            after_step: 1
            after_writers: true
          - restore: replace-then-readd
            after_step: 2
        invariants: [wal-content-carried, snapshot-consistent, restore-equals-backup, live-store-unaffected, integrity, backup-completes]
        expect: \(expect)
        """
    }

    /// A consistent copy each time (the sqlite3 shell's online backup).
    static let freshBackup = #"sqlite3 "$LIFEBOAT_STORE" ".backup \"$LIFEBOAT_BACKUP_DIR/Library.sqlite\"""#
    /// The first copy, handed out again for every later backup: it never sees a commit made after it.
    static let staleBackup = #"f="$LIFEBOAT_BACKUP_ROOT/first.sqlite"; [ -f "$f" ] || sqlite3 "$LIFEBOAT_STORE" ".backup \"$f\""; cp "$f" "$LIFEBOAT_BACKUP_DIR/Library.sqlite""#

    static func run(_ yaml: String, name: String) throws -> (RunResult, URL, Scratch) {
        let scratch = try Scratch(name)
        let file = scratch.path("\(name).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        settings.keepScratch = true
        let runner = try ScenarioRunner(scenario: try ScenarioParser.parse(file: file), file: file.path, settings: settings)
        let (result, _) = try runner.run()
        return (result, try #require(runner.scratchDirectory), scratch)
    }

    @Test func aBackupThatMissesThePostRestoreCommitsIsCaughtOnTheSecondRound() throws {
        let (result, _, _) = try Self.run(Self.scenario(backup: Self.staleBackup, expect: "violation wal-content-carried"), name: "continue-stale")
        #expect(result.expectationMet, "\(TimelineEventTests.failures(result))")
        let carried = try #require(result.verdicts.first { $0.invariant == "wal-content-carried" })
        #expect(carried.status == .violated)
        // The first round's backup is whole; the second lacks every commit of the second round's writers.
        #expect(carried.summary.contains("1 of 2"), "\(carried.summary)")
        #expect(carried.evidence.allSatisfy { $0.hasPrefix("backup-2") }, "\(carried.evidence)")
        for writer in [100_001, 100_002] {
            // (A writer whose first note was inserted and deleted again reflects that prefix, and no more.)
            #expect(carried.evidence.contains { $0.contains("writer \(writer) reflects") && $0.contains("but 40 were acknowledged before the backup began") },
                    "\(carried.evidence)")
        }
        // The stale copy is still a state the second round can explain (its base, before any of its commits),
        // and the second restore equals the backup it restored.
        #expect(result.verdicts.first { $0.invariant == "snapshot-consistent" }?.status == .held)
        #expect(result.verdicts.first { $0.invariant == "restore-equals-backup" }?.status == .held)
    }

    /// Under both schedulers: `turns` gives each round a restore begins turn FIFOs of its own (`TurnsScheduler`
    /// adopts its writers), as `try --deep`'s restore base needs.
    @Test(arguments: ["free", "turns"])
    func aCorrectBackupHoldsOverEveryRoundAndTheRoundsShareNoIdentity(_ scheduler: String) throws {
        // The scratch stays alive to the end of the test: the run's histories and backups are in it.
        let (result, scratchDirectory, scratch) = try Self.run(Self.scenario(backup: Self.freshBackup, expect: "pass", scheduler: scheduler),
                                                               name: "continue-fresh-\(scheduler)")
        defer { withExtendedLifetime(scratch) {} }
        #expect(result.expectationMet, "\(TimelineEventTests.failures(result))")
        #expect(result.errors.isEmpty, "\(result.errors)")
        // Three rounds of two writers, each under its round's numbers.
        #expect(result.writers.map(\.writer) == [1, 2, 100_001, 100_002, 200_001, 200_002])
        #expect(result.writers.allSatisfy { $0.committed == 40 }, "\(result.writers)")
        let live = try #require(result.verdicts.first { $0.invariant == "live-store-unaffected" })
        #expect(live.summary.contains("3"), "one check per round: \(live.summary)")

        let transactions = HistoryReader.transactions(in: scratchDirectory.appendingPathComponent("history"))
        var insertedByRound: [Int: Set<UUID>] = [:]
        for tx in transactions where tx.outcome == .committed {
            for op in tx.ops where op.op == "insert" { insertedByRound[WriterRound.round(of: tx.writer), default: []].insert(op.id) }
        }
        #expect(insertedByRound.keys.sorted() == [0, 1, 2])
        let rounds = insertedByRound.values.map { $0 }
        for (a, first) in rounds.enumerated() {
            for second in rounds.dropFirst(a + 1) { #expect(first.isDisjoint(with: second)) }
        }
        // Nothing a later round inserts is an object its base (the restored store) already held.
        let backup = try StoreState.read(scratchDirectory.appendingPathComponent("backups/0-1/Library.sqlite"))
        let base = backup.notes.merging(backup.others) { first, _ in first }
        #expect(Set(base.keys).isDisjoint(with: insertedByRound[1] ?? []))
        let all = Oracle(transactions: transactions, initial: [:])
        #expect(all.round(1, base: base).collisions.isEmpty)
        #expect(all.round(1, base: base).writers == [100_001, 100_002])
    }

    /// Two writers that go on after a restore: a backup-api backup after `backupAt` commits, a replace-then-readd
    /// restore (its trigger `restore`), then `more` (further schedule entries first, then the rest of the file).
    static func backupThenRestore(_ name: String, writers: String, backupAt: Int, restore: String, more: String) -> String {
        """
        name: \(name)
        store: {objects: 60, blob_fraction: 0}
        writers: {count: 2, blob_fraction: 0, after_restore: continue, \(writers)}
        schedule:
          - backup: backup-api
            after_commits: \(backupAt)
          - restore: replace-then-readd
            \(restore)
        \(more)
        """
    }

    /// A power cut in the second round, on FaultFS: the recovered store is held to the second round (the restored
    /// store plus what its writers had acknowledged), not to the commits the restore undid.
    @Test func aCrashInTheSecondRoundIsJudgedAgainstIt() throws {
        let (result, _, _) = try Self.run(Self.backupThenRestore("continue-crash", writers: "transactions: 40, rate: 100, synchronous: full",
                                                                 backupAt: 30, restore: "after_writers: true", more: """
            faults:
              mount: true
              crash: {after_commits: 120, mode: keep-none}
            invariants: [durable-after-crash, restore-equals-backup, integrity]
            expect: pass
            """), name: "continue-crash")
        #expect(result.expectationMet, "\(TimelineEventTests.failures(result))")
        let durable = try #require(result.verdicts.first { $0.invariant == "durable-after-crash" })
        #expect(durable.status == .held, "\(durable.summary) \(durable.evidence)")
        // The crash came in round 1, after some of its commits.
        #expect(result.events.contains { $0.detail.hasPrefix("round 1 begins") })
        let crash = try #require(result.events.first { $0.kind == .crash })
        let roundStart = try #require(result.events.first { $0.detail.hasPrefix("round 1 begins") }?.t)
        #expect(crash.t > roundStart)
    }

    /// `across_restore: keep` with `after_restore: continue`: the writers still committing when the restore comes
    /// keep their connections while it runs (`connections-agree` judges them), are stopped once it has ended, and
    /// the new round starts on what the store then holds; the first round's live store is held to what had been
    /// acknowledged when the restore found it.
    @Test func writersKeptAcrossTheRestoreAreStoppedBeforeTheNextRound() throws {
        let (result, _, _) = try Self.run(Self.backupThenRestore("continue-keep", writers: "transactions: 200, rate: 60, across_restore: keep",
                                                                 backupAt: 20, restore: "after_commits: 60", more: """
              - backup: vacuum-into
                after_step: 1
                after_writers: true
            invariants: [connections-agree, wal-content-carried, snapshot-consistent, integrity]
            expect: pass
            """), name: "continue-keep")
        // (live-store-unaffected is left out: a kept writer that changes one of its notes after the restore took it
        // away sees its save fail, "no Note with identity ...", which that invariant rightly reports.)
        #expect(result.expectationMet, "\(TimelineEventTests.failures(result))")
        #expect(result.verdicts.first { $0.invariant == "connections-agree" }?.status == .held)
        #expect(result.events.contains { $0.detail.hasPrefix("2 writer(s) of round 0 kept their connections across the restore; stopped") },
                "\(result.events.map(\.detail))")
        // The first round's writers were stopped short of their 200 transactions; the second round's wrote all.
        #expect(result.writers.filter { $0.writer < WriterRound.stride }.allSatisfy { $0.committed < 200 }, "\(result.writers)")
        #expect(result.writers.filter { $0.writer > WriterRound.stride }.map(\.committed) == [200, 200])
    }
}
