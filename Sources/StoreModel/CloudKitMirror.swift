import Foundation
import GRDB
import SeededRandomness

/// The mirroring delegate of `NSPersistentCloudKitContainer`, reduced to what reaches the store file and the
/// zone (docs/cloudkit.md). One `sync` is one export then one import:
///
/// - export: every object with no record metadata becomes a new record (a fresh record name), every metadata row
///   with `ZNEEDSUPLOAD = 1` uploads its object again, every row with `ZNEEDSCLOUDDELETE = 1` deletes its record
///   (and the row goes);
/// - import: every zone change after the stored server change token (all of them when there is none, or when
///   the token belongs to another store UUID) is applied: a record no metadata row maps becomes a new local
///   object, a mapped one updates its object, a deleted one deletes it; then the token moves on.
///
/// Its setup waits for the iCloud account: with the zone's account `unavailable` it retries until its deadline
/// and never completes, logging every attempt in the zone's `mirror.log` (what the seed's developer saw with
/// verbose logging: "tries to connect to iCloud again and again"). Record names and retry delays come from
/// `SeededRandom`.
public struct CloudKitMirror: Sendable {
    public var zone: CloudKitZone
    public var seed: UInt64
    /// Seconds the setup keeps retrying when the account is unavailable before the caller gives up on it.
    public var setupDeadline: Double
    /// Base pause between setup attempts (jittered from the seed).
    public var retryInterval = 0.1

    public init(zone: CloudKitZone, seed: UInt64 = 1, setupDeadline: Double = 5) {
        self.zone = zone
        self.seed = seed
        self.setupDeadline = setupDeadline
    }

    public enum MirrorError: Error, CustomStringConvertible, Equatable {
        case setupNeverCompleted(attempts: Int, seconds: Double, log: [String])
        public var description: String {
            switch self {
            case .setupNeverCompleted(let attempts, let seconds, let log):
                "the CloudKit mirror's setup never completed: the iCloud account is unavailable (\(attempts) attempt(s) in \(String(format: "%.1f", seconds)) s); retry log: "
                    + log.suffix(3).joined(separator: " | ")
            }
        }
    }

    /// What one sync did.
    public struct Report: Sendable, Codable, Equatable {
        public var exportedNew = 0
        public var exportedChanged = 0
        public var deletedInZone = 0
        public var importedNew = 0
        public var importedChanged = 0
        public var importedDeletes = 0
        public var tokenBefore: Int64?
        public var tokenAfter: Int64 = 0
        /// The stored token named another store UUID (or there was none): the import read the whole zone.
        public var fullImport = false
        public init() {}
    }

    /// Waits for the account, as the mirroring delegate's setup does; throws once the deadline passes.
    public func setUp(label: String) throws {
        let started = Date()
        var random = SeededRandom(seed: seed, label: "mirror-setup")
        var attempts = 0
        var log: [String] = []
        while true {
            attempts += 1
            let state = try zone.readState()
            if state.account == .available {
                if attempts > 1 { zone.log("\(label): setup completed after \(attempts) attempts") }
                return
            }
            let pause = retryInterval * (0.5 + random.nextUnit())
            let line = "\(label): setup attempt \(attempts): no iCloud account (account status unavailable); retrying in \(String(format: "%.3f", pause)) s"
            log.append(line)
            zone.log(line)
            let elapsed = Date().timeIntervalSince(started)
            guard elapsed + pause < setupDeadline else {
                throw MirrorError.setupNeverCompleted(attempts: attempts, seconds: elapsed, log: log)
            }
            usleep(UInt32(pause * 1_000_000))
        }
    }

    /// Adds the mirroring tables to a store that lacks them (loading it with CloudKit options on).
    public static func prepare(_ store: PersistentStore) throws {
        try store.withConnection { try CloudKitMirroring.enable($0) }
    }

    /// One export and one import against the zone, holding its lock and the store's write lock.
    @discardableResult
    public func sync(_ store: PersistentStore, label: String = "mirror") throws -> Report {
        try setUp(label: label)
        try Self.prepare(store)
        return try zone.locked {
            var report = Report()
            let storeUUID = store.metadata.storeUUID
            try store.save { context in
                context.isMirrorImport = true
                let db = context.db
                let stored = try CloudKitMirroring.token(db)
                let token = stored?.store == storeUUID ? stored : nil
                report.tokenBefore = token?.counter
                report.fullImport = token == nil
                if let stored, token == nil {
                    zone.log("\(label): the stored token belongs to store \(stored.store), not \(storeUUID): importing the whole zone")
                }
                let zoneState = try zone.readState()
                var random = SeededRandom(seed: seed, label: "mirror-export-\(zoneState.serverChangeCounter)")
                try export(store, db: db, random: &random, after: token?.counter ?? 0, report: &report)
                try importChanges(store, context: context, after: token?.counter ?? 0, report: &report)
                report.tokenAfter = try zone.readState().serverChangeCounter
                try CloudKitMirroring.setToken(db, CloudKitMirroring.ChangeToken(store: storeUUID, counter: report.tokenAfter))
            }
            zone.log("\(label): store \(storeUUID): exported \(report.exportedNew) new, \(report.exportedChanged) changed, deleted \(report.deletedInZone); imported \(report.importedNew) new, \(report.importedChanged) changed, \(report.importedDeletes) deletes; token \(report.tokenBefore.map(String.init) ?? "none") -> \(report.tokenAfter)")
            return report
        }
    }

    /// Rows of an entity (its own `Z_ENT`) that no metadata row maps.
    static func unmappedKeys(_ store: PersistentStore, entity: String, _ db: Database) throws -> [Int64] {
        let layout = store.layout
        let number = layout.number(entity)
        let own = layout.rowFilter(entity, alias: "e.").map { " AND \($0)" } ?? ""
        return try Int64.fetchAll(db, sql: """
            SELECT e.Z_PK FROM \(layout.table(entity)) e WHERE NOT EXISTS
              (SELECT 1 FROM ANSCKRECORDMETADATA m WHERE m.ZENTITYID = ? AND m.ZENTITYPK = e.Z_PK)\(own) ORDER BY e.Z_PK
            """, arguments: [number])
    }

    /// The objects of an entity with these primary keys, by key.
    static func objects(_ store: PersistentStore, entity: String, keys: [Int64], _ db: Database) throws -> [Int64: ManagedObject] {
        var result: [Int64: ManagedObject] = [:]
        for chunk in stride(from: 0, to: keys.count, by: 500).map({ Array(keys[$0..<min($0 + 500, keys.count)]) }) {
            var found: [ManagedObject] = []
            try store.forEachObject(entity, db, filter: "e.Z_PK IN (\(chunk.map(String.init).joined(separator: ",")))") { found.append($0) }
            // forEachObject goes in Z_PK order, as `chunk` is sorted.
            let sorted = chunk.sorted()
            let own = store.layout.rowFilter(entity, alias: "e.").map { " AND \($0)" } ?? ""
            let present = try Int64.fetchAll(db, sql: "SELECT e.Z_PK FROM \(store.layout.table(entity)) e WHERE e.Z_PK IN (\(sorted.map(String.init).joined(separator: ",")))\(own) ORDER BY e.Z_PK")
            for (key, object) in zip(present, found) { result[key] = object }
        }
        return result
    }

    func export(_ store: PersistentStore, db: Database, random: inout SeededRandom, after counter: Int64, report: inout Report) throws {
        // A record deleted in the zone since the token cannot be saved over (CloudKit answers `unknownItem` to a save
        // that carries the deleted record's system fields): the local change is not uploaded, and the import that
        // follows applies the delete.
        let deletedSinceToken = Set(try zone.changes(after: counter).filter { $0.kind == .delete }.map(\.recordName))
        let transaction = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION") ?? 0
        let zoneKey = try CloudKitMirroring.zoneKey(db)
        var saves: [CloudKitZone.Save] = []
        for entity in store.model.entities {
            let number = store.layout.number(entity.name)
            let fresh = try Self.unmappedKeys(store, entity: entity.name, db)
            let changed = try Int64.fetchAll(db, sql: """
                SELECT ZENTITYPK FROM ANSCKRECORDMETADATA WHERE ZENTITYID = ? AND ZNEEDSUPLOAD = 1 AND ZNEEDSCLOUDDELETE = 0 ORDER BY ZENTITYPK
                """, arguments: [number])
            let objects = try Self.objects(store, entity: entity.name, keys: (fresh + changed).sorted(), db)
            for key in fresh {
                guard let object = objects[key] else { continue }
                let name = random.uuid().uuidString
                try Self.insertMetadata(db, entity: number, key: key, record: name, transaction: transaction, zone: zoneKey)
                saves.append(try Self.save(name, object, store: store))
                report.exportedNew += 1
            }
            for key in changed {
                guard let object = objects[key],
                      let name = try String.fetchOne(db, sql: "SELECT ZCKRECORDID FROM ANSCKRECORDMETADATA WHERE ZENTITYID = ? AND ZENTITYPK = ?", arguments: [number, key])
                else { continue }
                if deletedSinceToken.contains(name), try zone.record(named: name) == nil {
                    zone.log("mirror: \(entity.name) record \(name) was deleted in the zone since the token; its local change is not uploaded (unknownItem)")
                    continue
                }
                try db.execute(sql: "UPDATE ANSCKRECORDMETADATA SET ZNEEDSUPLOAD = 0, ZLASTEXPORTEDTRANSACTIONNUMBER = ?, Z_OPT = Z_OPT + 1 WHERE ZENTITYID = ? AND ZENTITYPK = ?",
                               arguments: [transaction, number, key])
                saves.append(try Self.save(name, object, store: store))
                report.exportedChanged += 1
            }
        }
        let deletes = try String.fetchAll(db, sql: "SELECT ZCKRECORDID FROM ANSCKRECORDMETADATA WHERE ZNEEDSCLOUDDELETE = 1 AND ZCKRECORDID IS NOT NULL ORDER BY Z_PK")
        try db.execute(sql: "DELETE FROM ANSCKRECORDMETADATA WHERE ZNEEDSCLOUDDELETE = 1")
        report.deletedInZone = deletes.count
        if !saves.isEmpty || !deletes.isEmpty { _ = try zone.apply(saves: saves, deletes: deletes) }
    }

    /// A record to upload: external data leaves the object as assets, each staged in `ckAssetFiles/` first
    /// (`CloudKitAssets`).
    static func save(_ name: String, _ object: ManagedObject, store: PersistentStore) throws -> CloudKitZone.Save {
        let (rest, assets) = CloudKitAssets.split(object, model: store.model, threshold: store.options.externalStorageThreshold)
        var save = CloudKitZone.Save(name: name, object: rest)
        let staging = CloudKitAssets.stagingFolder(store.files)
        for (attribute, entry) in assets {
            save.assets[attribute] = (entry.0, try CloudKitAssets.stage(entry.1, as: entry.0, in: staging))
        }
        return save
    }

    /// A fetched record's assets land in the staging folder before the import writes them into the store (where
    /// the save makes them external data files again).
    static func download(_ record: CloudKitZone.Record, store: PersistentStore) throws {
        let staging = CloudKitAssets.stagingFolder(store.files)
        for (attribute, asset) in record.assets ?? [:] {
            guard case .binary(let data)? = record.object.attributes[attribute] else { continue }
            try CloudKitAssets.stage(data, as: asset, in: staging)
        }
    }

    func importChanges(_ store: PersistentStore, context: SaveContext, after counter: Int64, report: inout Report) throws {
        let db = context.db
        var last: [String: CloudKitZone.Change] = [:]
        var order: [String] = []
        for change in try zone.changes(after: counter) {
            if last[change.recordName] == nil { order.append(change.recordName) }
            last[change.recordName] = change
        }
        let zoneKey = try CloudKitMirroring.zoneKey(db)
        let transaction = try Int64.fetchOne(db, sql: "SELECT max(Z_PK) FROM ATRANSACTION") ?? 0
        var toLink: [ManagedObject] = []
        for name in order {
            guard let change = last[name] else { continue }
            let mapped = try Row.fetchOne(db, sql: "SELECT ZENTITYID, ZENTITYPK FROM ANSCKRECORDMETADATA WHERE ZCKRECORDID = ? ORDER BY Z_PK LIMIT 1", arguments: [name])
            let mappedKey = mapped.flatMap { SafeColumn.integer($0, "ZENTITYPK") }
            let mappedEntity = mapped.flatMap { SafeColumn.integer($0, "ZENTITYID") }
            switch change.kind {
            case .delete:
                guard let mappedKey, let mappedEntity else { continue }
                if let entity = store.layout.entityNumbers.first(where: { $0.value == mappedEntity })?.key,
                   let object = try Self.objects(store, entity: entity, keys: [mappedKey], db)[mappedKey] {
                    try context.delete(entity: entity, id: object.id)
                    report.importedDeletes += 1
                }
                try db.execute(sql: "DELETE FROM ANSCKRECORDMETADATA WHERE ZCKRECORDID = ?", arguments: [name])
            case .save:
                guard let record = try zone.record(named: name), store.model.entity(named: record.object.entity) != nil else { continue }
                let entity = record.object.entity
                if let mappedKey {
                    let local = try Self.objects(store, entity: entity, keys: [mappedKey], db)[mappedKey]
                    guard let local, local != record.object else { continue }
                    try Self.download(record, store: store)
                    try context.update(Self.resolvable(record.object, context: context, store: store).withoutRelationships)
                    toLink.append(record.object)
                    report.importedChanged += 1
                } else {
                    try Self.download(record, store: store)
                    let key = try context.insert(record.object.withoutRelationships)
                    let number = store.layout.number(entity)
                    try Self.insertMetadata(db, entity: number, key: key, record: name, transaction: transaction, zone: zoneKey)
                    toLink.append(record.object)
                    report.importedNew += 1
                }
            }
        }
        // Relationships once every imported object exists (Core Data parks the others as pending relationships).
        for object in toLink {
            let linkable = try Self.resolvable(object, context: context, store: store)
            if !linkable.toOne.isEmpty || !linkable.toMany.isEmpty { try context.link(linkable) }
        }
    }

    /// A record metadata row mapping an object to its record, nothing pending.
    static func insertMetadata(_ db: Database, entity: Int64, key: Int64, record: String, transaction: Int64, zone: Int64?) throws {
        let metadataEntity = CloudKitMirroring.entityNumber("ANSCKRECORDMETADATA")
        try db.execute(sql: """
            INSERT INTO ANSCKRECORDMETADATA (Z_PK, Z_ENT, Z_OPT, ZENTITYID, ZENTITYPK, ZLASTEXPORTEDTRANSACTIONNUMBER, ZNEEDSCLOUDDELETE, ZNEEDSUPLOAD, ZRECORDZONE, ZCKRECORDID)
            VALUES (?, ?, 1, ?, ?, ?, 0, 0, ?, ?)
            """, arguments: [try PersistentHistory.nextKey(db, metadataEntity), metadataEntity, entity, key, transaction, zone, record])
    }

    /// The object with only the relationships whose targets exist locally.
    static func resolvable(_ object: ManagedObject, context: SaveContext, store: PersistentStore) throws -> ManagedObject {
        guard let entity = store.model.entity(named: object.entity) else { return object }
        var result = object
        for (name, target) in object.toOne {
            guard let relationship = entity.relationship(named: name), try context.primaryKey(relationship.destination, target) != nil else {
                result.toOne[name] = nil
                continue
            }
        }
        for (name, targets) in object.toMany {
            guard let relationship = entity.relationship(named: name) else { result.toMany[name] = nil; continue }
            result.toMany[name] = try targets.filter { try context.primaryKey(relationship.destination, $0) != nil }
        }
        return result
    }
}
