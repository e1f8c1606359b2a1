import Foundation
import GRDB

/// What `NSPersistentCloudKitContainer` adds to a store file (docs/cloudkit.md): the `ANSCK*` tables of its
/// mirroring delegate, one `ANSCKRECORDMETADATA` row per object it has exported (entity id, primary key, record
/// name, `ZNEEDSUPLOAD`, `ZNEEDSCLOUDDELETE`, last exported transaction number) under a UNIQUE index on
/// (`ZENTITYID`, `ZENTITYPK`), zone and database metadata holding the server change token, and persistent history
/// (the container switches it on).
///
/// The table names are the ones app code lists for a CloudKit-enabled store; their `Z_PRIMARYKEY` numbers and
/// most columns are not public, so the numbers here (16004 and up, after the history entities, in table-name
/// order) and the columns of the tables this model leaves empty are this model's choice. The tables the model
/// uses carry the columns public reports name.
public enum CloudKitMirroring {
    /// The one zone Core Data mirrors a private database into.
    public static let zoneName = "com.apple.coredata.cloudkit.zone"
    /// The author of the mirror's own saves: its imports are not changes to export again (Core Data's history
    /// analyzer skips its own transactions the same way).
    public static let importAuthor = "NSCloudKitMirroringDelegate.import"

    /// Entity name in `Z_PRIMARYKEY`, table, and column declarations after `Z_PK, Z_ENT, Z_OPT`.
    struct Table {
        var entity: String
        var table: String
        var columns: [String]
    }

    static let tables: [Table] = [
        Table(entity: "NSCKDatabaseMetadata", table: "ANSCKDATABASEMETADATA",
              columns: ["ZDATABASESCOPENUM INTEGER", "ZHASSUBSCRIPTIONNUM INTEGER", "ZLASTFETCHDATE TIMESTAMP", "ZCURRENTCHANGETOKEN BLOB"]),
        Table(entity: "NSCKEvent", table: "ANSCKEVENT",
              columns: ["ZCLOUDKITEVENTTYPE INTEGER", "ZSUCCEEDED INTEGER", "ZSTARTEDAT TIMESTAMP", "ZENDEDAT TIMESTAMP", "ZERRORDOMAIN VARCHAR", "ZERRORCODE INTEGER"]),
        Table(entity: "NSCKExportedObject", table: "ANSCKEXPORTEDOBJECT",
              columns: ["ZOPERATION INTEGER", "ZTYPENUM INTEGER", "ZCKRECORDNAME VARCHAR", "ZZONENAME VARCHAR"]),
        Table(entity: "NSCKExportMetadata", table: "ANSCKEXPORTMETADATA",
              columns: ["ZHISTORYTOKEN BLOB", "ZEXPORTEDAT TIMESTAMP"]),
        Table(entity: "NSCKExportOperation", table: "ANSCKEXPORTOPERATION",
              columns: ["ZSTATUSNUM INTEGER", "ZIDENTIFIER VARCHAR"]),
        Table(entity: "NSCKHistoryAnalyzerState", table: "ANSCKHISTORYANALYZERSTATE",
              columns: ["ZENTITYID INTEGER", "ZENTITYPK INTEGER", "ZORIGINALTRANSACTIONNUMBER INTEGER", "ZFINALTRANSACTIONNUMBER INTEGER", "ZORIGINALCHANGETYPENUM INTEGER", "ZFINALCHANGETYPENUM INTEGER"]),
        Table(entity: "NSCKImportOperation", table: "ANSCKIMPORTOPERATION",
              columns: ["ZIMPORTDATE TIMESTAMP", "ZOPERATIONUUID BLOB", "ZCHANGETOKENBYTES BLOB"]),
        Table(entity: "NSCKImportPendingRelationship", table: "ANSCKIMPORTPENDINGRELATIONSHIP",
              columns: ["ZOPERATION INTEGER", "ZNEEDSDELETE INTEGER", "ZRECORDNAME VARCHAR", "ZRELATEDRECORDNAME VARCHAR", "ZRELATIONSHIPNAME VARCHAR"]),
        Table(entity: "NSCKMetadataEntry", table: "ANSCKMETADATAENTRY",
              columns: ["ZBOOLVALUENUM INTEGER", "ZINTEGERVALUE INTEGER", "ZDATEVALUE TIMESTAMP", "ZKEY VARCHAR", "ZSTRINGVALUE VARCHAR", "ZTRANSFORMEDVALUE BLOB"]),
        Table(entity: "NSCKMirroredRelationship", table: "ANSCKMIRROREDRELATIONSHIP",
              columns: ["ZISUPLOADED INTEGER", "ZNEEDSDELETE INTEGER", "ZRECORDZONE INTEGER", "ZCKRECORDID VARCHAR", "ZRECORDNAME VARCHAR", "ZRELATEDRECORDNAME VARCHAR", "ZRELATIONSHIPNAME VARCHAR"]),
        Table(entity: "NSCKMirroredRelationshipSystemFieldsAsset", table: "ANSCKMIRROREDRELATIONSHIPSYSTEMFIELDSASSET",
              columns: ["ZMIRROREDRELATIONSHIP INTEGER", "ZDATA BLOB"]),
        Table(entity: "NSCKRecordMetadata", table: "ANSCKRECORDMETADATA",
              columns: ["ZENTITYID INTEGER", "ZENTITYPK INTEGER", "ZLASTEXPORTEDTRANSACTIONNUMBER INTEGER", "ZNEEDSCLOUDDELETE INTEGER", "ZNEEDSUPLOAD INTEGER", "ZRECORDZONE INTEGER", "ZCKRECORDID VARCHAR", "ZCKRECORDSYSTEMFIELDS BLOB", "ZENCODEDRECORD BLOB"]),
        Table(entity: "NSCKRecordMetadataEncodedRecordAsset", table: "ANSCKRECORDMETADATAENCODEDRECORDASSET",
              columns: ["ZRECORDMETADATA INTEGER", "ZDATA BLOB"]),
        Table(entity: "NSCKRecordMetadataSystemFieldsAsset", table: "ANSCKRECORDMETADATASYSTEMFIELDSASSET",
              columns: ["ZRECORDMETADATA INTEGER", "ZDATA BLOB"]),
        Table(entity: "NSCKRecordZoneMetadata", table: "ANSCKRECORDZONEMETADATA",
              columns: ["ZDATABASE INTEGER", "ZHASRECORDZONENUM INTEGER", "ZHASSUBSCRIPTIONNUM INTEGER", "ZNEEDSIMPORT INTEGER", "ZNEEDSRECOVERYFROMZONEDELETE INTEGER", "ZLASTFETCHDATE TIMESTAMP", "ZCKOWNERNAME VARCHAR", "ZCKRECORDZONENAME VARCHAR", "ZCURRENTCHANGETOKEN BLOB"]),
        Table(entity: "NSCKRecordZoneMetadataEncodedShareAsset", table: "ANSCKRECORDZONEMETADATAENCODEDSHAREASSET",
              columns: ["ZRECORDZONEMETADATA INTEGER", "ZDATA BLOB"]),
        Table(entity: "NSCKRecordZoneMoveReceipt", table: "ANSCKRECORDZONEMOVERECEIPT",
              columns: ["ZNEEDSCLOUDDELETE INTEGER", "ZENTITYID INTEGER", "ZENTITYPK INTEGER", "ZMOVEDAT TIMESTAMP", "ZRECORDNAME VARCHAR", "ZZONENAME VARCHAR"]),
        Table(entity: "NSCKRecordZoneQuery", table: "ANSCKRECORDZONEQUERY",
              columns: ["ZRECORDZONE INTEGER", "ZENTITYNAME VARCHAR", "ZLASTFETCHDATE TIMESTAMP", "ZMOSTRECENTRECORDMODIFICATIONDATE TIMESTAMP", "ZPREDICATE BLOB"]),
    ]

    /// The first `Z_ENT` number of the mirroring entities (after persistent history's 16001-16003).
    public static let firstEntityNumber: Int64 = 16004

    /// Every mirroring table name (all start with `ANSCK`).
    public static var tableNames: [String] { tables.map(\.table) }

    /// Whether a table belongs to the mirroring delegate (by name, as the store shows it).
    public static func isMirroringTable(_ name: String) -> Bool { name.uppercased().hasPrefix("ANSCK") }

    /// Whether an entity name in `Z_PRIMARYKEY` is a mirroring entity.
    public static func isMirroringEntity(_ name: String) -> Bool { name.hasPrefix("NSCK") }

    static func ddl(_ table: Table) -> [String] {
        let columns = (["Z_PK INTEGER PRIMARY KEY", "Z_ENT INTEGER", "Z_OPT INTEGER"] + table.columns).joined(separator: ", ")
        var statements = ["CREATE TABLE \(table.table) ( \(columns) )"]
        if table.table == "ANSCKRECORDMETADATA" {
            statements.append("CREATE UNIQUE INDEX Z_RecordMetadata_UNIQUE_entityId_entityPK ON ANSCKRECORDMETADATA (ZENTITYID, ZENTITYPK)")
            statements.append("CREATE INDEX ANSCKRECORDMETADATA_ZRECORDZONE_INDEX ON ANSCKRECORDMETADATA (ZRECORDZONE)")
            statements.append("CREATE INDEX ANSCKRECORDMETADATA_ZCKRECORDID_INDEX ON ANSCKRECORDMETADATA (ZCKRECORDID)")
        }
        return statements
    }

    /// Whether the store is mirrored (has the record metadata table).
    public static func isEnabled(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ANSCKRECORDMETADATA')") == true
    }

    /// Adds the mirroring tables, their `Z_PRIMARYKEY` rows and persistent history to a store that has none, as
    /// loading it with `cloudKitContainerOptions` set does. No zone metadata yet: the mirror's first setup adds it.
    public static func enable(_ db: Database) throws {
        try PersistentHistory.enable(db)
        guard try !isEnabled(db) else { return }
        try db.inTransaction(.immediate) {
            for (offset, table) in tables.enumerated() {
                for statement in ddl(table) { try db.execute(sql: statement) }
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)",
                               arguments: [firstEntityNumber + Int64(offset), table.entity])
            }
            return .commit
        }
    }

    /// The `Z_ENT` of a mirroring entity.
    static func entityNumber(_ table: String) -> Int64 {
        firstEntityNumber + Int64(tables.firstIndex { $0.table == table } ?? 0)
    }

    /// Keeps the record metadata right for one local save, inside its transaction: an update marks the object's
    /// record `ZNEEDSUPLOAD = 1`; a delete marks it `ZNEEDSCLOUDDELETE = 1` (the row stays until the mirror has
    /// deleted the record). An insert adds nothing: the exporter finds rows without record metadata, as Core
    /// Data's does.
    static func record(_ db: Database, _ changes: [PersistentHistory.Change]) throws {
        for change in changes {
            switch change.kind {
            case .insert: continue
            case .update:
                try db.execute(sql: "UPDATE ANSCKRECORDMETADATA SET ZNEEDSUPLOAD = 1, Z_OPT = Z_OPT + 1 WHERE ZENTITYID = ? AND ZENTITYPK = ?",
                               arguments: [change.entity, change.key])
            case .delete:
                try db.execute(sql: "UPDATE ANSCKRECORDMETADATA SET ZNEEDSCLOUDDELETE = 1, Z_OPT = Z_OPT + 1 WHERE ZENTITYID = ? AND ZENTITYPK = ?",
                               arguments: [change.entity, change.key])
            }
        }
    }

    /// One `ANSCKRECORDMETADATA` row.
    public struct RecordMetadata: Sendable, Hashable, Codable {
        public var entityID: Int64
        public var entityPK: Int64
        public var recordName: String
        public var needsUpload: Bool
        public var needsCloudDelete: Bool
        public var lastExportedTransaction: Int64
    }

    /// Every record metadata row.
    public static func metadata(_ db: Database) throws -> [RecordMetadata] {
        guard try isEnabled(db) else { return [] }
        return try Row.fetchAll(db, sql: "SELECT ZENTITYID, ZENTITYPK, ZCKRECORDID, ZNEEDSUPLOAD, ZNEEDSCLOUDDELETE, ZLASTEXPORTEDTRANSACTIONNUMBER FROM ANSCKRECORDMETADATA ORDER BY Z_PK").map { row in
            RecordMetadata(entityID: SafeColumn.integer(row, "ZENTITYID") ?? -1, entityPK: SafeColumn.integer(row, "ZENTITYPK") ?? -1,
                           recordName: SafeColumn.text(row, "ZCKRECORDID") ?? "",
                           needsUpload: (SafeColumn.integer(row, "ZNEEDSUPLOAD") ?? 0) != 0,
                           needsCloudDelete: (SafeColumn.integer(row, "ZNEEDSCLOUDDELETE") ?? 0) != 0,
                           lastExportedTransaction: SafeColumn.integer(row, "ZLASTEXPORTEDTRANSACTIONNUMBER") ?? 0)
        }
    }

    /// The zone's server change token as the store holds it: the zone counter it had reached, and the store UUID
    /// it was fetched for. Core Data ties its history tokens to the store UUID; this model ties the zone token the
    /// same way, so a store with a new UUID starts from nothing.
    public struct ChangeToken: Sendable, Hashable, Codable {
        public var store: String
        public var counter: Int64
    }

    /// The zone metadata's token, or nil (none yet).
    public static func token(_ db: Database) throws -> ChangeToken? {
        guard try isEnabled(db),
              let data = try Data.fetchOne(db, sql: "SELECT ZCURRENTCHANGETOKEN FROM ANSCKRECORDZONEMETADATA WHERE ZCKRECORDZONENAME = ? ORDER BY Z_PK LIMIT 1", arguments: [zoneName])
        else { return nil }
        return try? JSONDecoder().decode(ChangeToken.self, from: data)
    }

    /// Records the token in the zone and database metadata (adding their rows on first use).
    static func setToken(_ db: Database, _ token: ChangeToken) throws {
        let data = try JSONEncoder().encode(token)
        let now = Date().timeIntervalSinceReferenceDate
        if try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ANSCKDATABASEMETADATA LIMIT 1") == nil {
            try db.execute(sql: "INSERT INTO ANSCKDATABASEMETADATA (Z_PK, Z_ENT, Z_OPT, ZDATABASESCOPENUM, ZHASSUBSCRIPTIONNUM) VALUES (?, ?, 1, 2, 1)",
                           arguments: [try PersistentHistory.nextKey(db, entityNumber("ANSCKDATABASEMETADATA")), entityNumber("ANSCKDATABASEMETADATA")])
        }
        try db.execute(sql: "UPDATE ANSCKDATABASEMETADATA SET ZCURRENTCHANGETOKEN = ?, ZLASTFETCHDATE = ?, Z_OPT = Z_OPT + 1", arguments: [data, now])
        if try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ANSCKRECORDZONEMETADATA WHERE ZCKRECORDZONENAME = ?", arguments: [zoneName]) == nil {
            let database = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ANSCKDATABASEMETADATA LIMIT 1")
            try db.execute(sql: """
                INSERT INTO ANSCKRECORDZONEMETADATA (Z_PK, Z_ENT, Z_OPT, ZDATABASE, ZHASRECORDZONENUM, ZHASSUBSCRIPTIONNUM, ZNEEDSIMPORT, ZCKOWNERNAME, ZCKRECORDZONENAME)
                VALUES (?, ?, 1, ?, 1, 1, 0, '__defaultOwner__', ?)
                """, arguments: [try PersistentHistory.nextKey(db, entityNumber("ANSCKRECORDZONEMETADATA")), entityNumber("ANSCKRECORDZONEMETADATA"), database, zoneName])
        }
        try db.execute(sql: "UPDATE ANSCKRECORDZONEMETADATA SET ZCURRENTCHANGETOKEN = ?, ZLASTFETCHDATE = ?, Z_OPT = Z_OPT + 1 WHERE ZCKRECORDZONENAME = ?",
                       arguments: [data, now, zoneName])
    }

    /// The zone metadata's primary key (for `ZRECORDZONE` of record metadata rows).
    static func zoneKey(_ db: Database) throws -> Int64? {
        try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ANSCKRECORDZONEMETADATA WHERE ZCKRECORDZONENAME = ?", arguments: [zoneName])
    }
}
