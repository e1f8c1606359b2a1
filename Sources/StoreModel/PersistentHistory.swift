import Foundation
import GRDB

/// Core Data's persistent history (`NSPersistentHistoryTrackingKey`), as real stores carry it: three entities
/// numbered from 16001 (CHANGE, TRANSACTION, TRANSACTIONSTRING) in tables prefixed `A`, with `Z_OPT` NULL in
/// every row and no version hash in the metadata. Each save adds one transaction row and one change row per
/// object inserted (type 0), updated (1) or deleted (2), naming the object by `Z_ENT` and `Z_PK`.
///
/// A store records history when it has these tables: `enable` adds them (the generator's `history` option),
/// and every later save through `PersistentStore.save` records into them.
public enum PersistentHistory {
    public static let change: Int64 = 16001
    public static let transaction: Int64 = 16002
    public static let transactionString: Int64 = 16003

    /// The tables and indexes, as Core Data declares them.
    static let ddl = [
        "CREATE TABLE ACHANGE ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZCHANGETYPE INTEGER, ZENTITY INTEGER, ZENTITYPK INTEGER, ZTRANSACTIONID INTEGER, ZCOLUMNS BLOB )",
        "CREATE TABLE ATRANSACTION ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZAUTHORTS INTEGER, ZBUNDLEIDTS INTEGER, ZCONTEXTNAMETS INTEGER, ZPROCESSIDTS INTEGER, ZTIMESTAMP FLOAT, ZAUTHOR VARCHAR, ZBUNDLEID VARCHAR, ZCONTEXTNAME VARCHAR, ZPROCESSID VARCHAR, ZQUERYGEN BLOB )",
        "CREATE TABLE ATRANSACTIONSTRING ( Z_PK INTEGER PRIMARY KEY, Z_ENT INTEGER, Z_OPT INTEGER, ZNAME VARCHAR )",
        "CREATE INDEX ACHANGE_ZTRANSACTIONID_INDEX ON ACHANGE (ZTRANSACTIONID)",
        "CREATE INDEX ATRANSACTION_ZAUTHORTS_INDEX ON ATRANSACTION (ZAUTHORTS)",
        "CREATE INDEX ATRANSACTION_ZBUNDLEIDTS_INDEX ON ATRANSACTION (ZBUNDLEIDTS)",
        "CREATE INDEX ATRANSACTION_ZCONTEXTNAMETS_INDEX ON ATRANSACTION (ZCONTEXTNAMETS)",
        "CREATE INDEX ATRANSACTION_ZPROCESSIDTS_INDEX ON ATRANSACTION (ZPROCESSIDTS)",
        "CREATE INDEX Z_TRANSACTION_TransactionAuthorIndex ON ATRANSACTION (ZAUTHOR COLLATE BINARY ASC)",
        "CREATE INDEX Z_TRANSACTION_TransactionTimestampIndex ON ATRANSACTION (ZTIMESTAMP COLLATE BINARY ASC)",
        "CREATE UNIQUE INDEX Z_TRANSACTIONSTRING_UNIQUE_NAME ON ATRANSACTIONSTRING (ZNAME COLLATE BINARY ASC)",
    ]

    /// One object change of a save.
    public struct Change: Sendable, Hashable {
        public enum Kind: Int64, Sendable { case insert = 0, update = 1, delete = 2 }
        public var kind: Kind
        public var entity: Int64
        public var key: Int64
        public init(kind: Kind, entity: Int64, key: Int64) {
            self.kind = kind
            self.entity = entity
            self.key = key
        }
    }

    /// Whether the store records history.
    public static func isEnabled(_ db: Database) throws -> Bool {
        try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'ATRANSACTION')") == true
    }

    /// Adds the history tables and entities to a store that has none.
    public static func enable(_ db: Database) throws {
        guard try !isEnabled(db) else { return }
        try db.inTransaction(.immediate) {
            for statement in ddl { try db.execute(sql: statement) }
            for (number, name) in [(change, "CHANGE"), (transaction, "TRANSACTION"), (transactionString, "TRANSACTIONSTRING")] {
                try db.execute(sql: "INSERT INTO Z_PRIMARYKEY (Z_ENT, Z_NAME, Z_SUPER, Z_MAX) VALUES (?, ?, 0, 0)", arguments: [number, name])
            }
            return .commit
        }
    }

    /// Records one save's changes as one transaction, inside the save's own SQLite transaction.
    public static func record(_ db: Database, _ changes: [Change], author: String?) throws {
        guard !changes.isEmpty else { return }
        var authorKey: Int64?
        if let author {
            authorKey = try Int64.fetchOne(db, sql: "SELECT Z_PK FROM ATRANSACTIONSTRING WHERE ZNAME = ?", arguments: [author])
            if authorKey == nil {
                let key = try nextKey(db, transactionString)
                try db.execute(sql: "INSERT INTO ATRANSACTIONSTRING (Z_PK, Z_ENT, Z_OPT, ZNAME) VALUES (?, ?, NULL, ?)",
                               arguments: [key, transactionString, author])
                authorKey = key
            }
        }
        let transactionKey = try nextKey(db, transaction)
        try db.execute(sql: """
            INSERT INTO ATRANSACTION (Z_PK, Z_ENT, Z_OPT, ZAUTHORTS, ZTIMESTAMP, ZAUTHOR) VALUES (?, ?, NULL, ?, ?, ?)
            """, arguments: [transactionKey, transaction, authorKey, Date().timeIntervalSinceReferenceDate, author])
        for change in changes {
            try db.execute(sql: """
                INSERT INTO ACHANGE (Z_PK, Z_ENT, Z_OPT, ZCHANGETYPE, ZENTITY, ZENTITYPK, ZTRANSACTIONID) VALUES (?, ?, NULL, ?, ?, ?, ?)
                """, arguments: [try nextKey(db, Self.change), Self.change, change.kind.rawValue, change.entity, change.key, transactionKey])
        }
    }

    static func nextKey(_ db: Database, _ entity: Int64) throws -> Int64 {
        try db.execute(sql: "UPDATE Z_PRIMARYKEY SET Z_MAX = coalesce(Z_MAX, 0) + 1 WHERE Z_ENT = ?", arguments: [entity])
        guard let key = try Int64.fetchOne(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", arguments: [entity]) else {
            throw StoreError.invalidObject("no Z_PRIMARYKEY row for history entity \(entity)")
        }
        return key
    }
}
