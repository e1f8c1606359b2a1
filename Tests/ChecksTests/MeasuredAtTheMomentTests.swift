@testable import Checks
import Foundation
@testable import StoreCheck
@testable import StoreModel
import Testing
import Workload

/// Verdicts that depend on when a measurement was taken, on records built by hand: each record holds what the run
/// measured at the moment it describes (the zone as a sync left it, the restored store as the restore left it,
/// the objects a sync brought from another device), beside what an end-of-run reading would have said. Each test
/// failed before the measurement was taken at its moment, with the finding a user had reported.
@Suite struct MeasuredAtTheMomentTests {
    static let note = ManagedObject(entity: "Note", id: UUID(), attributes: ["title": .string("a")])

    /// One local object, exported as one record, nothing waiting: consistent. `extraRecords` adds records another
    /// device exported (no local object of this store stands for them).
    static func cloudInput(extraRecords: Int = 0) -> CloudConsistencyInput {
        let row = CloudKitMirroring.RecordMetadata(entityID: 1, entityPK: 1, recordName: "r-1", needsUpload: false, needsCloudDelete: false,
                                                   lastExportedTransaction: 1)
        var records = [CloudKitZone.Record(recordName: "r-1", recordType: "CD_Note", changeCounter: 1, object: note)]
        for index in 0..<extraRecords {
            records.append(CloudKitZone.Record(recordName: "device-\(index)", recordType: "CD_Note", changeCounter: Int64(2 + index),
                                               object: ManagedObject(entity: "Note", id: UUID(), attributes: ["title": .string("d\(index)")])))
        }
        return CloudConsistencyInput(objects: [MirroredObject(entity: "Note", number: 1, key: 1, object: note)], metadata: [row],
                                     records: records, deleted: [])
    }

    static func store(_ label: String) -> StoreMeasurement { HandBuilt.clean(label) }

    @Test func cloudConsistentJudgesTheZoneAsTheLastSyncLeftItNotAsTheRunEnded() {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["cloud-consistent"]))
        record.cloud.syncs = [SyncMeasurement(label: "sync-2 (live)", name: "sync-2", store: Self.store("store after sync-2"), zone: nil,
                                              consistency: Measured(Self.cloudInput()))]
        // The zone read when the run ended holds 5 records a second device exported after the store's last sync.
        record.cloud.final = Measured(Self.cloudInput(extraRecords: 5))
        record.cloud.finalLabel = "after sync-2, the last sync"
        let verdict = Judge.judge(record).verdicts.first { $0.invariant == "cloud-consistent" }
        #expect(verdict?.status == .held, "\(String(describing: verdict))")
        #expect(verdict?.summary.contains("after sync-2, the last sync: 1 object(s), each one record of 1") == true, "\(verdict?.summary ?? "")")
    }

    @Test func aRecordFromBeforeSyncReadingsStillReJudgesOnItsEndOfRunReading() {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["cloud-consistent"]))
        record.cloud.syncs = [SyncMeasurement(label: "sync-2 (live)", store: Self.store("store after sync-2"), zone: nil)]
        record.cloud.final = Measured(Self.cloudInput(extraRecords: 5))
        record.cloud.finalLabel = "after sync-2, the last sync"
        let verdict = Judge.judge(record).verdicts.first { $0.invariant == "cloud-consistent" }
        #expect(verdict?.status == .violated)
        #expect(verdict?.evidence.contains { $0.contains("is 0 local object(s)") } == true)
    }

    @Test func eachDeviceIsJudgedAsItsOwnLastSyncLeftIt() {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["cloud-consistent"]))
        record.cloud.syncs = [
            SyncMeasurement(label: "device ipad after device-ipad-1", name: "device-ipad-1", device: "ipad", store: Self.store("ipad"), zone: nil,
                            consistency: Measured(Self.cloudInput(extraRecords: 2))),
            SyncMeasurement(label: "device ipad after device-ipad-3", name: "device-ipad-3", device: "ipad", store: Self.store("ipad"), zone: nil,
                            consistency: Measured(Self.cloudInput())),
        ]
        let verdicts = Judge.judge(record).verdicts.filter { $0.invariant == "cloud-consistent" }
        #expect(verdicts.map(\.status) == [.held])
        #expect(verdicts.first?.summary.contains("device ipad after device-ipad-3, its last sync: ") == true)
    }

    @Test func objectsASyncImportedFromAnotherDeviceAreNoStrangersToTheLiveStore() {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["live-store-unaffected"]))
        record.transactions = HandBuilt.transactions(2)
        let deviceNote = ManagedObject(entity: "Note", id: UUID(), attributes: ["title": .string("from the ipad")])
        var live = HandBuilt.state(2)
        live.notes[deviceNote.id] = "device-hash"
        record.liveAtEnd = HandBuilt.clean("live store at the end", state: live)
        let zone = [CloudKitZone.Record(recordName: "ipad-1", recordType: "CD_Note", changeCounter: 3, object: deviceNote)]
        var ipad = Self.cloudInput()
        ipad.objects.append(MirroredObject(entity: "Note", number: 1, key: 2, object: deviceNote))
        record.cloud.syncs = [
            SyncMeasurement(label: "device ipad after device-ipad-1", name: "device-ipad-1", device: "ipad", store: Self.store("ipad"), zone: nil,
                            consistency: Measured(ipad)),
            SyncMeasurement(label: "sync-2 (live)", name: "sync-2", store: Self.store("store after sync-2"), zone: Measured(zone)),
        ]
        let judged = JudgedRun(record)
        #expect(judged.oracle(round: 0).imported[deviceNote.id] == "device ipad, imported by sync-2")
        let verdict = Judge.judge(record).verdicts.first { $0.invariant == "live-store-unaffected" }
        #expect(verdict?.status == .held, "\(String(describing: verdict))")

        // Without the sync's reading the same object is a stranger, as it should be.
        record.cloud.syncs = []
        #expect(Judge.judge(record).verdicts.first { $0.invariant == "live-store-unaffected" }?.status == .violated)
    }

    /// A restore that ended at 5.0 s; the restored store was read at 5.2 s; writer 1 (kept across the restore)
    /// inserted note 2, acknowledged at `ackAt`.
    static func restoreRecord(ackAt: Double, readAt: Double?) -> RunRecord {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["restore-equals-backup"]))
        let later = UUID()
        record.transactions = [
            Transaction(writer: 1, seq: 1, ops: [HistoryOp(op: "insert", entity: "Note", id: HandBuilt.ids[0], hash: "h0")],
                        intentAt: 0.5, ackAt: 1, outcome: .committed, error: nil),
            Transaction(writer: 1, seq: 2, ops: [HistoryOp(op: "insert", entity: "Note", id: later, hash: "h-later")],
                        intentAt: ackAt - 0.01, ackAt: ackAt, outcome: .committed, error: nil),
        ]
        record.steps = [HandBuilt.backup("backup-0", start: 2, end: 3, state: HandBuilt.state(1))]
        var restoreStep = StepRecord(name: "restore-1", index: 1, action: .restore, strategy: "command", start: 4, end: 5, round: 0,
                                     succeeded: true, interrupted: false, error: nil)
        var restore = RestoreMeasurement(source: "backup-0", live: HandBuilt.clean("live store after restore-1 (command)"))
        var comparison = CheckReport(store: "/s/Library.sqlite")
        comparison.add(Finding(.violation, .extraObject, entity: "Note", object: later.uuidString, "not in the expected store"))
        restore.comparison = Measured(comparison)
        restore.readAt = readAt
        restoreStep.restore = restore
        record.steps.append(restoreStep)
        return record
    }

    @Test func restoreEqualsBackupSetsAsideWhatTheAppSavedAfterTheRestoreEnded() {
        let verdict = Judge.judge(Self.restoreRecord(ackAt: 5.015, readAt: 5.2)).verdicts.first { $0.invariant == "restore-equals-backup" }
        #expect(verdict?.status == .held, "\(String(describing: verdict))")
        #expect(verdict?.summary.contains("1 object(s) the app saved after the restore ended set aside: writer 1 tx 2, acknowledged 15 ms after the restore ended") == true)
    }

    @Test func restoreEqualsBackupStillBlamesTheRestoreForWhatCameBeforeItsEnd() {
        // Acknowledged during the restore: the restored store is not the backup, and that is the restore's doing.
        let during = Judge.judge(Self.restoreRecord(ackAt: 4.5, readAt: 5.2)).verdicts.first { $0.invariant == "restore-equals-backup" }
        #expect(during?.status == .violated)
        // A record from before the reading time was kept is judged as it was.
        let old = Judge.judge(Self.restoreRecord(ackAt: 5.015, readAt: nil)).verdicts.first { $0.invariant == "restore-equals-backup" }
        #expect(old?.status == .violated)
    }
}
