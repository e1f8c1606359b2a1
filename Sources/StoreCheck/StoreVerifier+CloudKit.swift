import Foundation
import GRDB
import StoreModel

extension StoreVerifier {
    /// A mirrored store (`ANSCKRECORDMETADATA` present, docs/cloudkit.md): every record metadata row not waiting
    /// for a cloud delete must name an object that exists (else its record maps to nothing and the next import
    /// cannot find the object it updates); objects with no metadata row, and rows waiting to upload, are
    /// reported as warnings with what the next sync will do with them. The `ANSCK*` entities themselves are
    /// neither the app's objects nor persistent history.
    static func checkMirroring(_ db: Database, _ store: InspectedStore, _ report: inout CheckReport) throws {
        guard store.columns["ANSCKRECORDMETADATA"] != nil,
              let columns = store.columns["ANSCKRECORDMETADATA"], ["ZENTITYID", "ZENTITYPK", "ZNEEDSCLOUDDELETE", "ZNEEDSUPLOAD"].allSatisfy(columns.contains)
        else { return }
        let mirrored = store.entities.filter { $0.framework == nil && store.columns[$0.table] != nil }
        let byNumber = Dictionary(mirrored.map { ($0.number, $0) }, uniquingKeysWith: { first, _ in first })
        let rows = try Row.fetchAll(db, sql: "SELECT Z_PK, ZENTITYID, ZENTITYPK, ZNEEDSCLOUDDELETE, ZNEEDSUPLOAD, ZCKRECORDID FROM ANSCKRECORDMETADATA")
        var mapped: [Int64: Set<Int64>] = [:]
        var waiting = 0
        for row in rows {
            guard let entityID = SafeColumn.integer(row, "ZENTITYID"), let key = SafeColumn.integer(row, "ZENTITYPK") else {
                report.add(Finding(.violation, .cloudKitMirroring, "ANSCKRECORDMETADATA row \(SafeColumn.integer(row, "Z_PK") ?? -1) has no integer ZENTITYID/ZENTITYPK"))
                continue
            }
            mapped[entityID, default: []].insert(key)
            if (SafeColumn.integer(row, "ZNEEDSCLOUDDELETE") ?? 0) != 0 { continue }
            if (SafeColumn.integer(row, "ZNEEDSUPLOAD") ?? 0) != 0 { waiting += 1 }
            let record = SafeColumn.text(row, "ZCKRECORDID") ?? "?"
            guard let entity = byNumber[entityID] else {
                report.add(Finding(.violation, .cloudKitMirroring, object: record, "record metadata names entity \(entityID), which the store does not have"))
                continue
            }
            let exists = try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_PK = ? AND Z_ENT = ?)",
                                           arguments: [key, entityID]) == true
            if !exists {
                report.add(Finding(.violation, .cloudKitMirroring, entity: entity.name, object: record,
                                   "record metadata points at Z_PK \(key), which does not exist (and no cloud delete is pending)"))
            }
        }
        for entity in mirrored {
            let keys = try Int64.fetchAll(db, sql: "SELECT Z_PK FROM \(entity.table.quotedDatabaseIdentifier) WHERE Z_ENT = ? AND typeof(Z_PK) = 'integer'", arguments: [entity.number])
            let unmapped = keys.filter { !(mapped[entity.number]?.contains($0) ?? false) }
            if !unmapped.isEmpty {
                report.add(Finding(.warning, .cloudKitMirroring, entity: entity.name,
                                   "\(unmapped.count) of \(keys.count) object(s) have no record metadata: the next sync exports them as new records (after a migrate, or a restore through one, these are copies of records already in the zone: duplicates)"))
            }
        }
        if waiting > 0 {
            report.add(Finding(.warning, .cloudKitMirroring, "\(waiting) record metadata row(s) have ZNEEDSUPLOAD = 1: local changes the next sync uploads"))
        }
    }
}
