import Foundation
import GRDB
import StoreModel

extension StoreState {
    /// The state of a store this harness has no model of (a drill on a user's own store): every object named by
    /// its table and key, hashed from its layout (`LayoutObjects`), read through a read-only connection.
    static func readLayout(_ url: URL) throws -> StoreState {
        let files = StoreFiles(url)
        let queue = try PlainConnection.open(files.database, readOnly: true)
        defer { try? queue.close() }
        return try queue.read { db in try readLayout(db, files: files, holding: {}) }
    }

    /// The same inside one read transaction of `db`, then `hold` with the transaction still open: how a reader
    /// process reads a store that is not this harness's (a user's store, `--store`) and keeps its snapshot.
    static func readLayout(_ db: Database, files: StoreFiles, holding hold: () -> Void) throws -> StoreState {
        let url = files.database
        var state = StoreState()
        let schema = try StoreSchema.read(db)
        guard schema.isCoreDataStore else {
            throw StoreError.notACoreDataStore(url.path, reason: "Z_PRIMARYKEY or Z_METADATA is missing")
        }
        if let row = try Row.fetchOne(db, sql: "SELECT Z_UUID, Z_PLIST FROM Z_METADATA WHERE Z_VERSION = 1"),
           let plist = SafeColumn.blob(row, "Z_PLIST"),
           let metadata = try? StoreMetadata(plistData: plist, uuid: SafeColumn.text(row, "Z_UUID")) {
            state.storeUUID = metadata.storeUUID
            state.versionHashes = metadata.versionHashes
        }
        for object in try LayoutObjects.all(db, schema: schema, files: files) {
            if object.missingExternalData { state.missingBlobs.insert(object.id) }
            if state.notes.updateValue(object.hash, forKey: object.id) != nil { state.repeated.insert(object.id) }
        }
        hold()
        return state
    }
}
