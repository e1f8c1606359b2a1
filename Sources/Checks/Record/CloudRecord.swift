import Foundation
import StoreCheck
import StoreModel
import Workload

/// What the CloudKit steps of a run left (docs/cloudkit.md): each sync's store and zone, read the moment the sync
/// ended, with what the judge needs for `cloud-consistent`.
public struct CloudRecord: Sendable, Codable {
    public var syncs: [SyncMeasurement] = []
    /// Records written before the syncs carried their own reading: the store and the zone read when the run ended.
    /// Kept so that those records re-judge as they did; new runs leave it nil (a zone read at the end holds what
    /// other devices exported after the store's last sync).
    public var final: Measured<CloudConsistencyInput>?
    /// The label of the final sync ("after sync-3, the last sync"), with `final`.
    public var finalLabel: String?
    /// With `final`: a second device on the same account, read at the end: label -> its store and the zone.
    public var devices: [String: Measured<CloudConsistencyInput>] = [:]

    /// The objects the app's syncs found in the zone that neither the app's initial store nor any writer made:
    /// another device's, which a sync imports into the live store. Identity -> the device that holds it (read at
    /// its own syncs) and the first sync of the app's store that saw it.
    public func importedFromOtherDevices(transactions: [Transaction]) -> [UUID: String] {
        var made = Set<UUID>()
        for tx in transactions { for op in tx.ops { made.insert(op.id) } }
        var owner: [UUID: String] = [:]
        for sync in syncs {
            guard let device = sync.device, let objects = sync.consistency?.value?.objects else { continue }
            for object in objects where owner[object.object.id] == nil { owner[object.object.id] = device }
        }
        var imported: [UUID: String] = [:]
        for sync in syncs where sync.device == nil {
            let records = sync.consistency?.value?.records ?? sync.zone?.value ?? []
            for record in records where !made.contains(record.object.id) && imported[record.object.id] == nil {
                let by = sync.name ?? sync.label
                imported[record.object.id] = owner[record.object.id].map { "device \($0), imported by \(by)" } ?? "another device, imported by \(by)"
            }
        }
        return imported
    }

    /// What `cloud-consistent` judges: for the app's store and for each second device, the reading taken right
    /// after its last sync (labelled "after sync-3, the last sync"); records from before those readings were
    /// taken fall back to the end-of-run readings they carry.
    public var lastSyncReadings: [(label: String, input: Measured<CloudConsistencyInput>)] {
        var readings: [(String, Measured<CloudConsistencyInput>)] = []
        if let last = syncs.last(where: { $0.device == nil && $0.consistency != nil }), let input = last.consistency {
            readings.append(("after \(last.name ?? last.label), the last sync", input))
        } else if let final {
            readings.append((finalLabel ?? "after the last sync", final))
        }
        let devicesSynced = Set(syncs.compactMap { $0.consistency != nil ? $0.device : nil })
        if devicesSynced.isEmpty {
            readings += devices.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        } else {
            for device in devicesSynced.sorted() {
                guard let last = syncs.last(where: { $0.device == device && $0.consistency != nil }), let input = last.consistency else { continue }
                readings.append(("device \(device) after \(last.name ?? last.label), its last sync", input))
            }
        }
        return readings
    }

    public init() {}
}

/// One `sync` step (of the app's store, or of a second device's): the local store's checker report and the zone's
/// records right after it.
public struct SyncMeasurement: Sendable, Codable {
    public var label: String
    /// The step's name ("sync-3", "device-ipad-5"); nil in records from before it was kept.
    public var name: String?
    /// The second device that synced (`device: NAME`); nil for the app's own store.
    public var device: String?
    public var store: StoreMeasurement
    /// Nil when the run has no zone (a store without CloudKit).
    public var zone: Measured<[CloudKitZone.Record]>?
    /// The store and the zone as this sync left them, for `cloud-consistent` (nil without a zone, and in records
    /// from before it was read at the sync).
    public var consistency: Measured<CloudConsistencyInput>?

    public init(label: String, name: String? = nil, device: String? = nil, store: StoreMeasurement, zone: Measured<[CloudKitZone.Record]>?,
                consistency: Measured<CloudConsistencyInput>? = nil) {
        self.label = label
        self.name = name
        self.device = device
        self.store = store
        self.zone = zone
        self.consistency = consistency
    }
}

/// The store and the zone after the last sync: every local object with its key, the mirror's record metadata,
/// the zone's records, and the objects whose delete was acknowledged before the restored backup began.
public struct CloudConsistencyInput: Sendable, Codable {
    public var objects: [MirroredObject]
    public var metadata: [CloudKitMirroring.RecordMetadata]
    public var records: [CloudKitZone.Record]
    public var deleted: Set<UUID>

    public init(objects: [MirroredObject], metadata: [CloudKitMirroring.RecordMetadata], records: [CloudKitZone.Record], deleted: Set<UUID>) {
        self.objects = objects
        self.metadata = metadata
        self.records = records
        self.deleted = deleted
    }
}

/// One mirrored object of the store: its entity, entity number, key and values.
public struct MirroredObject: Sendable, Codable {
    public var entity: String
    public var number: Int64
    public var key: Int64
    public var object: ManagedObject

    public init(entity: String, number: Int64, key: Int64, object: ManagedObject) {
        self.entity = entity
        self.number = number
        self.key = key
        self.object = object
    }
}
