@testable import Checks
import Foundation
@testable import StoreCheck
import StoreModel
import Testing
import Workload

/// The judge on small run records built by hand: no store, no process, no FUSE. Each test states what a run
/// observed and what the verdicts must be, the way `lifeboat judge` re-checks a stored run.
@Suite struct JudgeTests {
    @Test func aRunWithNothingToExamineSaysWhyForEachInvariant() {
        let judgement = Judge.judge(RunRecord(plan: HandBuilt.plan()))
        #expect(judgement.expectationMet)
        #expect(judgement.verdicts.map(\.invariant) == InvariantRegistry.names)
        for verdict in judgement.verdicts {
            #expect(verdict.status == .notApplicable && verdict.summary.hasPrefix("not exercised: "), "\(verdict)")
        }
        #expect(HandBuilt.verdict(judgement, "durable-after-crash").summary == "not exercised: no crash in this run")
    }

    @Test func aBackupMissingAcknowledgedCommitsIsCaughtByWalContentCarried() {
        var record = RunRecord(plan: HandBuilt.plan())
        record.transactions = HandBuilt.transactions()
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: HandBuilt.state(3))
        // Begun at 2.5: two commits were acknowledged, the backup holds one.
        record.steps = [HandBuilt.backup("backup-0", start: 2.5, end: 2.6, state: HandBuilt.state(1))]
        let judgement = Judge.judge(record)
        let carried = HandBuilt.verdict(judgement, "wal-content-carried")
        #expect(carried.status == .violated && carried.evidence.first?.contains("reflects 1 of its transactions, but 2 were acknowledged") == true, "\(carried)")
        #expect(HandBuilt.verdict(judgement, "snapshot-consistent").status == .held)
        #expect(HandBuilt.verdict(judgement, "live-store-unaffected").status == .held)
        #expect(!judgement.expectationMet)
    }

    /// The careful-backup case: the power fails right after a backup that synced everything; the only operations
    /// the crash dropped are the writers' own, never synced (Core Data's attachments). The program's verdicts
    /// hold; the loss is `app-durable`'s, and a `pass` run stays green.
    @Test func theAppsOwnLossIsNeverTheProgramsFinding() {
        var record = RunRecord(plan: HandBuilt.plan())
        record.transactions = HandBuilt.transactions()
        record.steps = [HandBuilt.backup("backup-0", start: 1.5, end: 1.6, state: HandBuilt.state(1))]
        let missing = Finding(.violation, .missingExternalFile, entity: "Note", object: "Z_PK 3",
                              "ZATTACHMENT refers to /s/.Library_SUPPORT/_EXTERNAL_DATA/AB12, which is missing")
        // After the crash the store lost note 2's data: no prefix of writer 1's history.
        var crashed = HandBuilt.state(3)
        crashed.notes[HandBuilt.ids[2]] = "torn"
        let rename = LossRecord.Operation(what: "rename /.Library_SUPPORT/_EXTERNAL_DATA/AB12.interim -> /.Library_SUPPORT/_EXTERNAL_DATA/AB12",
                                          path: "/.Library_SUPPORT/_EXTERNAL_DATA/AB12.interim", actor: "writer-1", kind: .app, barrier: "never")
        record.crash = CrashRecord(at: 3.5, description: "crash (keep-none) right after backup-0",
                                   live: HandBuilt.clean("live store after the crash", state: crashed, findings: [missing]),
                                   liveLoss: LossRecord(operations: [rename], cause: "rename ... by writer-1 was never followed by an fsync of its directory"))
        record.crash?.missingExternalFiles = ["AB12": rename]
        // Read again with the app's lost attachment set aside: note 2 is compared by presence only.
        var setAside = crashed
        setAside.missingBlobs = [HandBuilt.ids[2]]
        record.crash?.liveWithoutAppsLosses = Measured(setAside)
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: crashed, findings: [missing])
        let judgement = Judge.judge(record)
        for name in ["durable-after-crash", "live-store-unaffected", "blobs-carried", "backup-completes"] {
            #expect(HandBuilt.verdict(judgement, name).status == .held, "\(HandBuilt.verdict(judgement, name))")
        }
        let app = HandBuilt.verdict(judgement, "app-durable")
        #expect(app.status == .violated && app.isAppsOwn && app.cause?.contains("writer-1") == true, "\(app)")
        #expect(app.evidence.contains { $0.contains("AB12") && $0.contains("rename") }, "\(app.evidence)")
        #expect(judgement.expectationMet, "the app's own loss fails no pass run")

        // A scenario that names app-durable judges it like any other invariant; one that names others still
        // gets the app's own findings, apart.
        record.plan = HandBuilt.plan(invariants: ["app-durable"])
        let named = Judge.judge(record)
        #expect(named.verdicts.map(\.invariant) == ["app-durable", "saves-after-migrate"] && !named.verdicts[0].isAppsOwn && !named.expectationMet)
        record.plan = HandBuilt.plan(invariants: ["durable-after-crash"])
        let other = Judge.judge(record)
        #expect(other.verdicts.map(\.invariant) == ["durable-after-crash", "app-durable", "saves-after-migrate"] && other.verdicts[1].isAppsOwn && other.expectationMet)

        // A lost acknowledged commit that no attachment of the app's explains stays the program's finding, with
        // the cause.
        record.plan = HandBuilt.plan()
        var lostCommit = setAside
        lostCommit.notes[HandBuilt.ids[1]] = nil
        lostCommit.notes[HandBuilt.ids[2]] = nil
        record.crash?.liveWithoutAppsLosses = Measured(lostCommit)
        let mixed = Judge.judge(record)
        let durable = HandBuilt.verdict(mixed, "durable-after-crash")
        #expect(durable.status == .violated && durable.cause != nil, "\(durable)")
        #expect(!mixed.expectationMet)
    }

    /// A restore judged against the backup it was given: attachment files the backup lacked are the backup's
    /// finding, not the restore's.
    @Test func aFaithfulRestoreOfAnIncompleteBackupHolds() {
        var record = RunRecord(plan: HandBuilt.plan())
        record.transactions = HandBuilt.transactions()
        let lacking = Finding(.violation, .missingExternalFile, entity: "Note", object: "Z_PK 7",
                              "ZATTACHMENT refers to /b/backup-0/.Library_SUPPORT/_EXTERNAL_DATA/CD34, which is missing")
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3), findings: [lacking])]
        var restoredFinding = lacking
        restoredFinding.message = "ZATTACHMENT refers to /s/.Library_SUPPORT/_EXTERNAL_DATA/CD34, which is missing"
        var restore = StepRecord(name: "restore-1", index: 1, action: .restore, strategy: "command", start: 4, end: 4.2, round: 0,
                                 succeeded: true, interrupted: false, error: nil)
        var measurement = RestoreMeasurement(source: "backup-0", live: HandBuilt.clean("live store after restore-1 (command)", findings: [restoredFinding]))
        var comparison = CheckReport(store: "/s/Library.sqlite")
        comparison.add(restoredFinding)
        measurement.comparison = Measured(comparison)
        measurement.afterCrash = RestoreAfterCrash(crash: "crash right after restore-1", comparison: Measured(comparison), loss: nil)
        measurement.open = Measured(OpenedStore(objects: 3, how: "opens with Library v1"))
        restore.restore = measurement
        record.steps.append(restore)
        let judgement = Judge.judge(record)
        let equals = HandBuilt.verdict(judgement, "restore-equals-backup")
        #expect(equals.status == .held && equals.summary.contains("the backup backup-0 (command) itself lacked"), "\(equals)")
        #expect(HandBuilt.verdict(judgement, "restore-durable").status == .held)
        #expect(HandBuilt.verdict(judgement, "restore-opens").status == .held)
        let blobs = HandBuilt.verdict(judgement, "blobs-carried")
        #expect(blobs.status == .violated && blobs.evidence.allSatisfy { $0.hasPrefix("backup-0 (command)") }, "\(blobs)")

        // A restore that loses a file the backup had is caught.
        var other = restoredFinding
        other.object = "Z_PK 9"
        comparison.add(other)
        record.steps[1].restore?.comparison = Measured(comparison)
        #expect(HandBuilt.verdict(Judge.judge(record), "restore-equals-backup").status == .violated)
    }

    @Test func anAppProcessThatEndsWithAnErrorIsAFinding() {
        var record = RunRecord(plan: HandBuilt.plan())
        record.transactions = HandBuilt.transactions()
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: HandBuilt.state(3))
        record.processes = [ProcessExit(name: "writer-2", status: 1, signal: nil, killedByRunner: false, outputTail: "no such table: ZNOTE"),
                            ProcessExit(name: "writer-1", status: nil, signal: 9, killedByRunner: true, outputTail: "")]
        let live = HandBuilt.verdict(Judge.judge(record), "live-store-unaffected")
        #expect(live.status == .violated && live.evidence == ["writer-2 exited with status 1: no such table: ZNOTE"], "\(live)")
    }

    @Test func anEnvironmentErrorJudgesNothing() {
        var record = RunRecord(plan: HandBuilt.plan())
        record.environmentError = "backup.sh: sh: cannot open missing.sh"
        let judgement = Judge.judge(record)
        #expect(!judgement.expectationMet)
        #expect(judgement.verdicts.allSatisfy { $0.status == .notApplicable && $0.summary.hasPrefix("not run: environment error") })
    }

    /// `lifeboat judge`'s input: a record survives its file and judges the same.
    @Test func aStoredRecordJudgesTheSame() throws {
        var record = RunRecord(plan: HandBuilt.plan(expect: "violation wal-content-carried"))
        record.transactions = HandBuilt.transactions()
        record.steps = [HandBuilt.backup("backup-0", start: 2.5, end: 2.6, state: HandBuilt.state(1))]
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: HandBuilt.state(3))
        let text = try RecordFile.encode(record)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("judge-\(UUID().uuidString).json")
        defer { try? FileManager.default.removeItem(at: url) }
        try Data(text.utf8).write(to: url)
        let stored = try RecordFile.read(url)
        #expect(Judge.judge(stored).verdicts == Judge.judge(record).verdicts)
        #expect(Judge.judge(stored).expectationMet)
        try Data(#"{"schema":"lifeboat.run/2"}"#.utf8).write(to: url)
        #expect(throws: RecordFileError.self) { try RecordFile.read(url) }
    }

    @Test func theRegistryNamesEachInvariantOnce() {
        let names = InvariantRegistry.names
        #expect(Set(names).count == names.count)
        #expect(InvariantRegistry.all.filter { $0.owner == .app }.map(\.name) == ["app-durable", "saves-after-migrate"])
    }

    /// Saves that failed because the app's coordinator held no store (migrate on the app's coordinator, then the
    /// copy removed): the app lost nothing it was told was saved, and the failures are the app's own finding.
    @Test func savesThatFoundNoStoreAreTheAppsOwnAndLoseNothingAcknowledged() {
        var record = RunRecord(plan: HandBuilt.plan())
        var transactions = HandBuilt.transactions(2)
        transactions.append(Transaction(writer: 1, seq: 3, ops: [HistoryOp(op: "insert", entity: "Note", id: HandBuilt.ids[2], hash: "h2")],
                                        intentAt: 2.9, ackAt: nil, outcome: .failed, error: StoreError.noPersistentStoresReason))
        record.transactions = transactions
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: HandBuilt.state(2))
        let judgement = Judge.judge(record)
        #expect(HandBuilt.verdict(judgement, "live-store-unaffected").status == .held, "\(HandBuilt.verdict(judgement, "live-store-unaffected"))")
        let saves = HandBuilt.verdict(judgement, "saves-after-migrate")
        #expect(saves.status == .violated && saves.isAppsOwn, "\(saves)")
        #expect(saves.evidence.first?.contains("writer 1 tx 3") == true && saves.evidence.contains { $0.contains("1 save(s) failed after the migrate") })
        #expect(judgement.expectationMet, "the app's own finding fails no pass run")

        // Any other failed save is still the writers' being affected.
        record.transactions[2].error = "SQLite: disk I/O error"
        #expect(HandBuilt.verdict(Judge.judge(record), "live-store-unaffected").status == .violated)
        #expect(HandBuilt.verdict(Judge.judge(record), "saves-after-migrate").status == .notApplicable)
    }
}
