import Foundation
import GRDB
import StoreModel

/// The CloudKit invariants (docs/cloudkit.md): what a store and its zone must look like after a sync.
extension Invariants {
    /// One mirrored object of the store: its entity, key, identity and values.
    struct MirroredObject {
        var entity: String
        var number: Int64
        var key: Int64
        var object: ManagedObject
    }

    /// Reads the store's objects with their keys and its record metadata, read-only.
    static func mirroredState(_ url: URL) throws -> (objects: [MirroredObject], metadata: [CloudKitMirroring.RecordMetadata]) {
        let model = ManagedObjectModel.appModel(for: url, fallback: .library)
        var options = StoreOptions()
        options.readOnly = true
        let store = try PersistentStore(at: url, model: model, options: options)
        defer { try? store.close() }
        return try store.read { db in
            var objects: [MirroredObject] = []
            for entity in model.entities {
                let own = store.layout.rowFilter(entity.name).map { " WHERE \($0)" } ?? ""
                let keys = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(store.layout.table(entity.name))\(own) ORDER BY Z_PK")
                var index = 0
                try store.forEachObject(entity.name, db) { object in
                    if index < keys.count {
                        objects.append(MirroredObject(entity: entity.name, number: store.layout.number(entity.name), key: keys[index], object: object))
                    }
                    index += 1
                }
            }
            return (objects, try CloudKitMirroring.metadata(db))
        }
    }

    /// `no-duplicates` in the zone: no two records carry the same object (entity and identity).
    public static func zoneNoDuplicates(_ zone: CloudKitZone, label: String) -> Verdict {
        do {
            let records = try zone.records()
            let groups = Dictionary(grouping: records, by: { "\($0.object.entity) \($0.object.id.uuidString)" }).filter { $0.value.count > 1 }
            if groups.isEmpty { return Verdict("no-duplicates", .held, "\(label): each object is one record in the zone (\(records.count) records)") }
            return Verdict("no-duplicates", .violated, "\(label): \(groups.count) object(s) held by more than one record in the zone",
                           evidence: groups.keys.sorted().prefix(12).map { "\(label): zone: \($0) is in records \(groups[$0]!.map(\.recordName).sorted().joined(separator: ", "))" })
        } catch {
            return Verdict("no-duplicates", .violated, "\(label): the zone cannot be read", evidence: ["\(label): \(error)"])
        }
    }

    /// `cloud-consistent` after a final sync: every local object is exactly one record with its values and every
    /// record is exactly one local object; nothing is left waiting to upload; and no object deleted before the
    /// restored backup was taken (`deleted`: identities whose delete was acknowledged before it began, never
    /// inserted again) is back.
    public static func cloudConsistent(_ url: URL, zone: CloudKitZone, deleted: Set<UUID>, label: String) -> Verdict {
        let state: (objects: [MirroredObject], metadata: [CloudKitMirroring.RecordMetadata])
        let records: [CloudKitZone.Record]
        do {
            state = try mirroredState(url)
            records = try zone.records()
        } catch {
            return Verdict("cloud-consistent", .violated, "\(label): the store or the zone cannot be read", evidence: ["\(label): \(error)"])
        }
        var evidence: [String] = []
        let recordsByName = Dictionary(records.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        var metadataByObject: [String: CloudKitMirroring.RecordMetadata] = [:]
        var metadataByRecord: [String: [CloudKitMirroring.RecordMetadata]] = [:]
        for row in state.metadata {
            metadataByObject["\(row.entityID)/\(row.entityPK)"] = row
            metadataByRecord[row.recordName, default: []].append(row)
        }
        let objectsByKey = Dictionary(state.objects.map { ("\($0.number)/\($0.key)", $0) }, uniquingKeysWith: { first, _ in first })
        var unexported = 0, waiting = 0, stale = 0
        for local in state.objects {
            let name = "\(local.entity) \(local.object.id.uuidString) (Z_PK \(local.key))"
            guard let row = metadataByObject["\(local.number)/\(local.key)"] else {
                unexported += 1
                if unexported <= 5 { evidence.append("\(label): \(name) has no record metadata: never uploaded") }
                continue
            }
            if row.needsUpload || row.needsCloudDelete {
                waiting += 1
                if waiting <= 5 { evidence.append("\(label): \(name) still waits to upload after the final sync (ZNEEDSUPLOAD \(row.needsUpload ? 1 : 0), ZNEEDSCLOUDDELETE \(row.needsCloudDelete ? 1 : 0))") }
            }
            guard let record = recordsByName[row.recordName] else {
                evidence.append("\(label): \(name) maps to record \(row.recordName), which the zone does not have")
                continue
            }
            // Many-to-many links travel as records of their own in CloudKit (CDMR), which this model leaves out:
            // a record is compared on its attributes and to-one relationships.
            var mine = local.object, theirs = record.object
            mine.toMany = [:]
            theirs.toMany = [:]
            if mine != theirs {
                stale += 1
                if stale <= 5 { evidence.append("\(label): \(name) differs from its record \(row.recordName)") }
            }
        }
        if unexported > 5 { evidence.append("\(label): \(unexported) object(s) in all have no record metadata") }
        for record in records {
            let rows = metadataByRecord[record.recordName] ?? []
            let live = rows.filter { objectsByKey["\($0.entityID)/\($0.entityPK)"] != nil }
            if live.count != 1 {
                evidence.append("\(label): record \(record.recordName) (\(record.object.entity) \(record.object.id.uuidString)) is \(live.count) local object(s)")
            }
        }
        let identities = Dictionary(grouping: state.objects, by: { "\($0.entity) \($0.object.id.uuidString)" }).filter { $0.value.count > 1 }
        for key in identities.keys.sorted().prefix(5) { evidence.append("\(label): \(key) is stored \(identities[key]!.count) times") }
        let back = state.objects.filter { deleted.contains($0.object.id) }
        for local in back.prefix(5) {
            evidence.append("\(label): \(local.entity) \(local.object.id.uuidString) was deleted before the restored backup was taken and is back after the sync")
        }
        if back.count > 5 { evidence.append("\(label): \(back.count) deleted object(s) in all are back") }
        if evidence.isEmpty {
            return Verdict("cloud-consistent", .held, "\(label): \(state.objects.count) object(s), each one record of \(records.count); nothing waiting to upload")
        }
        return Verdict("cloud-consistent", .violated, "\(label): the store and the zone disagree (\(evidence.count) finding(s))", evidence: Array(evidence.prefix(24)))
    }
}
