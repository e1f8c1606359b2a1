import Foundation
import StoreCheck
import StoreModel

/// What the CloudKit steps of a run left (docs/cloudkit.md): each sync's store and zone, and the store and zone
/// after the last sync with what the judge needs for `cloud-consistent`.
public struct CloudRecord: Sendable, Codable {
    public var syncs: [SyncMeasurement] = []
    public var final: Measured<CloudConsistencyInput>?
    /// The label of the final sync ("after sync-3, the last sync").
    public var finalLabel: String?
    /// A second device on the same account (`device:`), after its last sync: label -> its store and the zone.
    public var devices: [String: Measured<CloudConsistencyInput>] = [:]

    public init() {}
}

/// One `sync` step: the local store's checker report and the zone's records right after it.
public struct SyncMeasurement: Sendable, Codable {
    public var label: String
    public var store: StoreMeasurement
    /// Nil when the run has no zone (a store without CloudKit).
    public var zone: Measured<[CloudKitZone.Record]>?

    public init(label: String, store: StoreMeasurement, zone: Measured<[CloudKitZone.Record]>?) {
        self.label = label
        self.store = store
        self.zone = zone
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
