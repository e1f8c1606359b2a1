import Foundation
import StoreModel

/// `cloud-consistent` after each store's last sync, as that sync left the store and the zone (docs/cloudkit.md): every local object is exactly one record with
/// its values and every record exactly one local object; nothing is left waiting to upload; and no object
/// deleted before the restored backup was taken (its delete acknowledged before the backup began, never inserted
/// again) is back. External data travels as assets (`CloudKitAssets`): each record's asset must be the device's
/// attachment, read from its external data file.
struct CloudConsistent: Invariant {
    let name = "cloud-consistent"
    let fix = "restore into a store the mirror has not seen (a new store UUID) or reset the mirror's metadata, then let CloudKit sync again; carry the support folder (_EXTERNAL_DATA) with every backup, restore and move"
    let consequence = "the devices and CloudKit disagree: records or attachments lost, stale or doubled on every device"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.record.cloud.lastSyncReadings.map { label, input in
            guard let value = input.value else {
                return Verdict(name, .violated, "\(label): the store or the zone cannot be read", evidence: ["\(label): \(input.error ?? "?")"])
            }
            return Self.verdict(value, label: label)
        }
    }

    static func verdict(_ input: CloudConsistencyInput, label: String) -> Verdict {
        let records = input.records
        var evidence: [String] = []
        let recordsByName = Dictionary(records.map { ($0.recordName, $0) }, uniquingKeysWith: { first, _ in first })
        var metadataByObject: [String: CloudKitMirroring.RecordMetadata] = [:]
        var metadataByRecord: [String: [CloudKitMirroring.RecordMetadata]] = [:]
        for row in input.metadata {
            metadataByObject["\(row.entityID)/\(row.entityPK)"] = row
            metadataByRecord[row.recordName, default: []].append(row)
        }
        let objectsByKey = Dictionary(input.objects.map { ("\($0.number)/\($0.key)", $0) }, uniquingKeysWith: { first, _ in first })
        var unexported = 0, waiting = 0, stale = 0, assets = 0, assetProblems = 0
        for local in input.objects {
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
            // External data travels as assets (CloudKitAssets): each is compared with this device's value, which
            // Core Data reads from the store's external data file (nil when the file is gone).
            assets += record.assets?.count ?? 0
            for (attribute, asset) in (record.assets ?? [:]).sorted(by: { $0.key < $1.key }) {
                if let problem = Self.assetProblem(attribute, asset, local: local.object, record: record) {
                    assetProblems += 1
                    if assetProblems <= 5 { evidence.append("\(label): \(name) \(problem)") }
                }
            }
            // Many-to-many links travel as records of their own in CloudKit (CDMR), which this model leaves out:
            // a record is compared on its attributes and to-one relationships; assets are compared above.
            var mine = local.object, theirs = record.object
            mine.toMany = [:]
            theirs.toMany = [:]
            for attribute in (record.assets ?? [:]).keys {
                mine.attributes[attribute] = nil
                theirs.attributes[attribute] = nil
            }
            if mine != theirs {
                stale += 1
                if stale <= 5 { evidence.append("\(label): \(name) differs from its record \(row.recordName)") }
            }
        }
        if unexported > 5 { evidence.append("\(label): \(unexported) object(s) in all have no record metadata") }
        if assetProblems > 5 { evidence.append("\(label): \(assetProblems) asset(s) in all are not this device's external data") }
        for record in records {
            let rows = metadataByRecord[record.recordName] ?? []
            let live = rows.filter { objectsByKey["\($0.entityID)/\($0.entityPK)"] != nil }
            if live.count != 1 {
                evidence.append("\(label): record \(record.recordName) (\(record.object.entity) \(record.object.id.uuidString)) is \(live.count) local object(s)")
            }
        }
        let identities = Dictionary(grouping: input.objects, by: { "\($0.entity) \($0.object.id.uuidString)" }).filter { $0.value.count > 1 }
        for key in identities.keys.sorted().prefix(5) { evidence.append("\(label): \(key) is stored \(identities[key]!.count) times") }
        let back = input.objects.filter { input.deleted.contains($0.object.id) }
        for local in back.prefix(5) {
            evidence.append("\(label): \(local.entity) \(local.object.id.uuidString) was deleted before the restored backup was taken and is back after the sync")
        }
        if back.count > 5 { evidence.append("\(label): \(back.count) deleted object(s) in all are back") }
        if evidence.isEmpty {
            let carried = assets > 0 ? "; \(assets) asset(s), each this device's external data" : ""
            return Verdict("cloud-consistent", .held, "\(label): \(input.objects.count) object(s), each one record of \(records.count); nothing waiting to upload\(carried)")
        }
        return Verdict("cloud-consistent", .violated, "\(label): the store and the zone disagree (\(evidence.count) finding(s))", evidence: Array(evidence.prefix(24)))
    }

    /// What is wrong with one asset of a record on this device, or nil: the zone must hold the asset's data, and
    /// the device's value (its external data file) must be that data.
    static func assetProblem(_ attribute: String, _ asset: CloudKitAssets.Asset, local: ManagedObject, record: CloudKitZone.Record) -> String? {
        guard case .binary(let data)? = record.object.attributes[attribute] else {
            return "has \(attribute) as asset \(asset.short) (\(asset.size) bytes) of record \(record.recordName), whose data the zone does not hold"
        }
        switch local.attributes[attribute] {
        case .binary(let mine)? where mine == data:
            return nil
        case .binary(let mine)?:
            return "has a \(attribute) of \(mine.count) bytes (\(CloudKitAssets.hash(mine).prefix(12))) where the zone's asset is \(asset.short) (\(asset.size) bytes)"
        default:
            return "has no \(attribute) on this device (its external data file is missing from _EXTERNAL_DATA) while the zone holds it as asset \(asset.short) (\(asset.size) bytes): a backup, restore or move that left the support folder behind"
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no CloudKit sync in this run" }
}
