@testable import Checks
import Foundation
import LifeboatTestSupport
@testable import StoreCheck
@testable import StoreModel
import Testing

/// `no-duplicates` on records built by hand: a tiny real store holds each identity once; the same store with
/// one note saved twice (two rows, one identity: what a migrate into a non-empty destination leaves) is
/// violated with the checker's finding; the CloudKit zone after a sync is judged the same way; a run that
/// measured no store is not exercised.
@Suite struct NoDuplicatesInvariantTests {
    static let name = "no-duplicates"

    /// A tiny store in which one note, `twice`, is stored in two rows.
    static func storeWithADuplicate(_ scratch: Scratch) throws -> (URL, UUID) {
        let url = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite")
        let note = ManagedObject(entity: "Note", attributes: ["title": .string("saved twice")])
        let store = try PersistentStore(at: url, model: .library)
        try store.save { context in
            try context.insert(note)
            try context.insert(note)
        }
        try store.close()
        return (url, note.id)
    }

    static func record(backup url: URL) -> RunRecord {
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: HandBuilt.measured(url, label: "backup-0 (command)"))]
        return record
    }

    static func zoneRecord(_ name: String, _ object: ManagedObject) -> CloudKitZone.Record {
        CloudKitZone.Record(recordName: name, recordType: "CD_\(object.entity)", changeCounter: 1, object: object)
    }

    @Test func eachIdentityOnceHolds() throws {
        let scratch = try Scratch("dups-held")
        let verdict = HandBuilt.verdict(Self.record(backup: try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite")), Self.name)
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command): each identity once", "\(verdict)")
    }

    @Test func anIdentityStoredTwiceIsViolated() throws {
        let scratch = try Scratch("dups-violated")
        let (url, id) = try Self.storeWithADuplicate(scratch)
        let judgement = Judge.judge(Self.record(backup: url))
        let verdict = HandBuilt.verdict(judgement, Self.name)
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 1 check(s): backup-0 (command): 1 finding(s)", "\(verdict)")
        #expect(verdict.evidence.count == 1, "\(verdict.evidence)")
        #expect(verdict.evidence.first?.hasPrefix("backup-0 (command): violation duplicate-identity Note \(id.uuidString): stored 2 times") == true, "\(verdict.evidence)")
        #expect(verdict.owner == nil && verdict.fix == NoDuplicates().fix)
        #expect(!judgement.expectationMet)
    }

    @Test func anObjectHeldByTwoRecordsOfTheZoneIsViolated() {
        let note = ManagedObject(entity: "Note", attributes: ["title": .string("one")])
        let other = ManagedObject(entity: "Note", attributes: ["title": .string("two")])
        var record = HandBuilt.record()
        let synced = HandBuilt.clean("store after sync-1", state: HandBuilt.state(0))
        record.cloud.syncs = [SyncMeasurement(label: "sync-1", store: synced, zone: Measured([Self.zoneRecord("A", note), Self.zoneRecord("B", other)]))]
        #expect(HandBuilt.verdict(record, Self.name).summary
            == "held in 2 check(s): store after sync-1: each identity once; zone after sync-1: each object is one record in the zone (2 records)")

        record.cloud.syncs.append(SyncMeasurement(label: "sync-2", store: synced,
                                                  zone: Measured([Self.zoneRecord("A", note), Self.zoneRecord("C", note), Self.zoneRecord("B", other)])))
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.summary.hasPrefix("violated in 1 of 4 check(s): zone after sync-2: 1 object(s) held by more than one record"), "\(verdict)")
        #expect(verdict.evidence == ["zone after sync-2: zone: Note \(note.id.uuidString) is in records A, C"])
    }

    @Test func aZoneThatCannotBeReadIsViolated() {
        var record = HandBuilt.record()
        record.cloud.syncs = [SyncMeasurement(label: "sync-1", store: HandBuilt.clean("store after sync-1"), zone: Measured(error: "no zone at /cloud"))]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.evidence == ["zone after sync-1: no zone at /cloud"], "\(verdict)")
    }

    @Test func aRunThatMeasuredNoStoreIsNotExercised() {
        let verdict = HandBuilt.verdict(HandBuilt.record(), Self.name)
        #expect(verdict.status == .notApplicable)
        #expect(verdict.summary == "not exercised: no store was measured in this run (no backup, restore, crash, sync or end-of-run reading)")
    }
}
