import Foundation
import GRDB
import StoreModel

extension Measure {
    /// The store and the zone as a sync left them, for `cloud-consistent`: every local object with its entity
    /// number and key, the mirror's record metadata, and the zone's records, read-only.
    public static func cloud(_ url: URL, zone: CloudKitZone, deleted: Set<UUID>) -> Measured<CloudConsistencyInput> {
        cloud(url, records: Measured.of { try zone.records() }, deleted: deleted)
    }

    /// The same with the zone's records already read (a sync reads them once for `no-duplicates` and this).
    public static func cloud(_ url: URL, records: Measured<[CloudKitZone.Record]>, deleted: Set<UUID>) -> Measured<CloudConsistencyInput> {
        guard let records = records.value else { return Measured(error: records.error ?? "the zone's records could not be read") }
        return Measured.of {
            let model = ManagedObjectModel.appModel(for: url, fallback: .library)
            var options = StoreOptions()
            options.readOnly = true
            let store = try PersistentStore(at: url, model: model, options: options)
            defer { try? store.close() }
            let (objects, metadata) = try store.read { db -> ([MirroredObject], [CloudKitMirroring.RecordMetadata]) in
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
            return CloudConsistencyInput(objects: objects, metadata: metadata, records: records, deleted: deleted)
        }
    }
}
