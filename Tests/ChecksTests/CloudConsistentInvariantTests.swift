@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreModel
import Testing

/// `cloud-consistent` on records built by hand, over a tiny real mirrored store synced into a real zone directory
/// and measured as a run measures them (`Measure.cloud`): right after the sync every object is one record
/// (held); an edit left waiting to upload, an object deleted before the restored backup that is back, and a
/// device whose store or zone cannot be read are violated; a run without a sync is not exercised.
@Suite struct CloudConsistentInvariantTests {
    static let name = "cloud-consistent"
    static let label = "after sync-1, the last sync"

    /// A generated mirrored store, synced once into a new zone.
    static func synced(_ scratch: Scratch) throws -> (URL, CloudKitZone) {
        let url = scratch.path("app/Library.sqlite")
        var generator = StoreGenerator(objects: 8, blobFraction: 0, seed: 3)
        generator.cloudKit = true
        try generator.generate(at: url)
        let zone = try CloudKitZone.create(at: scratch.path("cloud"))
        let store = try PersistentStore(at: url, model: .library)
        try CloudKitMirror(zone: zone).sync(store)
        try store.close()
        return (url, zone)
    }

    static func verdict(_ final: Measured<CloudConsistencyInput>?, devices: [String: Measured<CloudConsistencyInput>] = [:]) -> Verdict {
        var record = HandBuilt.record()
        record.cloud.final = final
        record.cloud.finalLabel = final == nil ? nil : Self.label
        record.cloud.devices = devices
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aStoreAndZoneThatAgreeHold() throws {
        let scratch = try Scratch("cloud-held")
        let (url, zone) = try Self.synced(scratch)
        let input = Measure.cloud(url, zone: zone, deleted: [])
        let objects = try #require(input.value?.objects.count)
        #expect(objects > 0 && input.value?.records.count == objects)
        let verdict = Self.verdict(input)
        #expect(verdict.status == .held, "\(verdict)")
        #expect(verdict.summary == "held in 1 check(s): \(Self.label): \(objects) object(s), each one record of \(objects); nothing waiting to upload", "\(verdict.summary)")
    }

    @Test func anEditLeftWaitingToUploadIsViolated() throws {
        let scratch = try Scratch("cloud-waiting")
        let (url, zone) = try Self.synced(scratch)
        let store = try PersistentStore(at: url, model: .library)
        let note = try #require(try store.objects("Note").first)
        try store.save { context in
            var changed = ManagedObject(entity: "Note", id: note.id)
            changed.attributes["title"] = .string("edited after the last sync")
            try context.update(changed)
        }
        try store.close()
        let verdict = Self.verdict(Measure.cloud(url, zone: zone, deleted: []))
        #expect(verdict.status == .violated && verdict.summary.contains("\(Self.label): the store and the zone disagree (2 finding(s))"), "\(verdict)")
        #expect(verdict.evidence.contains { $0.hasPrefix("\(Self.label): Note \(note.id.uuidString)") && $0.contains("still waits to upload after the final sync (ZNEEDSUPLOAD 1, ZNEEDSCLOUDDELETE 0)") },
                "\(verdict.evidence)")
        #expect(verdict.evidence.contains { $0.hasPrefix("\(Self.label): Note \(note.id.uuidString)") && $0.contains("differs from its record") }, "\(verdict.evidence)")
        #expect(verdict.fix == CloudConsistent().fix && verdict.owner == nil)
    }

    @Test func anObjectDeletedBeforeTheRestoredBackupThatIsBackIsViolated() throws {
        let scratch = try Scratch("cloud-back")
        let (url, zone) = try Self.synced(scratch)
        let note = try #require(try StoreState.read(url).notes.keys.sorted { $0.uuidString < $1.uuidString }.first)
        let verdict = Self.verdict(Measure.cloud(url, zone: zone, deleted: [note]))
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.evidence == ["\(Self.label): Note \(note.uuidString) was deleted before the restored backup was taken and is back after the sync"], "\(verdict.evidence)")
    }

    @Test func aDeviceThatCannotBeReadIsViolated() throws {
        let scratch = try Scratch("cloud-device")
        let (url, zone) = try Self.synced(scratch)
        let verdict = Self.verdict(Measure.cloud(url, zone: zone, deleted: []),
                                   devices: ["device-2 after sync-2": Measure.cloud(scratch.path("device-2/Library.sqlite"), zone: zone, deleted: [])])
        #expect(verdict.status == .violated && verdict.summary.hasPrefix("violated in 1 of 2 check(s): device-2 after sync-2: the store or the zone cannot be read"), "\(verdict)")
        #expect(verdict.evidence.count == 1 && verdict.evidence[0].hasPrefix("device-2 after sync-2: "), "\(verdict.evidence)")
    }

    @Test func withoutASyncItIsNotExercised() {
        let verdict = Self.verdict(nil)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no CloudKit sync in this run", "\(verdict)")
    }
}
