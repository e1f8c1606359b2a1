import Foundation
import GRDB

extension ExternalDataFiles {
    /// The attachment files a store's rows name, each with its owner (`ZNOTE.ZATTACHMENT Z_PK 12`), in the order of their owners (table, column, Z_PK), read on a
    /// private copy (`StoreSnapshot`). Core Data names the files with fresh UUIDs, so their names differ from run to
    /// run while the objects that own them follow the seed: a seeded choice among these (a `damage` entry's
    /// `drop-attachment`) picks the same object's attachment again in a replay.
    public static func namesInOwnerOrder(_ url: URL) throws -> [(owner: String, file: String)] {
        let snapshot = try StoreSnapshot(of: url)
        let queue = try PlainConnection.open(snapshot.copy.database, readOnly: true)
        defer { try? queue.close() }
        return try queue.read { db in
            var names: [(owner: String, file: String)] = []
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name LIKE 'Z%' ORDER BY name")
            for table in tables {
                let columns = try Row.fetchAll(db, sql: "PRAGMA table_info(\(table.quotedDatabaseIdentifier))")
                guard columns.contains(where: { ($0["name"] as String?) == "Z_PK" }) else { continue }
                for column in columns.compactMap({ $0["type"] as String? == "BLOB" ? $0["name"] as String? : nil }).sorted() {
                    let name = column.quotedDatabaseIdentifier
                    let rows = try Row.fetchAll(db, sql: """
                        SELECT Z_PK, \(name) AS value FROM \(table.quotedDatabaseIdentifier)
                        WHERE typeof(\(name)) = 'blob' AND substr(\(name), 1, 1) = x'02' ORDER BY Z_PK
                        """)
                    for row in rows {
                        guard let value = row["value"] as Data?, case .external(let file) = ExternalDataReference(encoded: value) else { continue }
                        names.append(("\(table).\(column) Z_PK \(row["Z_PK"] as Int64? ?? 0)", file))
                    }
                }
            }
            return names
        }
    }
}
