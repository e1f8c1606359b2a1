import Crypto
import Foundation
import GRDB
import StoreModel

/// `lifeboat check STORE --against EXPECTED`: logical equality, object by object and blob by blob.
///
/// Objects are matched by identity (the UUID attribute) so a copy that renumbered primary keys still compares
/// equal; in stores with no identity attribute (every store an app wrote) they are matched by `Z_PK`, and where
/// that finds differences, by content (`ContentComparison`), which tells renumbered objects from missing, extra
/// and duplicated ones. Relationships compare by their targets' identities, external data by the
/// SHA-256 of its bytes wherever they live (inline or in `_EXTERNAL_DATA`). Both stores are read as two sorted
/// streams and merged, so memory stays flat.
public enum StoreComparison {
    public static func compare(_ url: URL, against expectedURL: URL, limitPerKind: Int = CheckLimits.perKind,
                               progress: ((String) -> Void)? = nil) throws -> CheckReport {
        var report = try StoreVerifier.verify(url, limitPerKind: limitPerKind, progress: progress)
        report.against = expectedURL.path
        let started = Date()
        let actual: InspectedStore, expected: InspectedStore
        do {
            progress?("reading private copies of both stores")
            actual = try InspectedStore.open(url)
            expected = try InspectedStore.open(expectedURL)
        } catch StoreError.missingStore(let path) {
            throw StoreError.missingStore(path)
        } catch {
            if case .unopenable? = error as? StoreError { report.unopenable = report.unopenable ?? "\(error)" }
            if case .notACoreDataStore? = error as? StoreError { report.unopenable = report.unopenable ?? "\(error)" }
            report.add(Finding(.violation, .unreadable, "cannot compare: \(error)"))
            return report
        }
        defer {
            try? actual.queue.close()
            try? expected.queue.close()
        }
        do {
            try actual.queue.read { actualDB in
                try expected.queue.read { expectedDB in
                    let sides = Sides(actual: (actual, actualDB), expected: (expected, expectedDB))
                    progress?("comparing object by object")
                    try compareMetadata(sides, &report)
                    // By identity (or Z_PK) first: streaming, and exact about which object changed how.
                    var keyed = CheckReport(store: report.store, limitPerKind: limitPerKind)
                    var tally = KeyedTally()
                    try compareObjects(sides, &keyed, tally: &tally)
                    try compareLinks(sides, &keyed)
                    let withoutIdentity = actual.model == nil || expected.model == nil
                    if withoutIdentity, KeyedTally.byKey.contains(where: { keyed.count($0) > 0 }) {
                        // No identity attribute: keys may differ for the same objects (a migrate renumbers them).
                        // Content decides, entity by entity, between renumbered and really different.
                        progress?("comparing by content (no identity attribute)")
                        var content = CheckReport(store: report.store)
                        try ContentComparison.compare(sides, &content)
                        KeyedTally.reconcile(keyed: keyed, tally: tally, content: content, into: &report)
                    } else {
                        for finding in keyed.findings { report.add(finding) }
                        for (kind, count) in keyed.suppressed {
                            report.suppressed[kind, default: 0] += count
                        }
                        report.suppressedViolations += keyed.suppressedViolations
                    }
                }
            }
        } catch {
            report.add(Finding(.violation, .unreadable, "comparison failed: \(error)"))
        }
        report.seconds += Date().timeIntervalSince(started)
        return report
    }

    struct Sides {
        var actual: (store: InspectedStore, db: Database)
        var expected: (store: InspectedStore, db: Database)
    }

    static func compareMetadata(_ sides: Sides, _ report: inout CheckReport) throws {
        guard let mine = sides.actual.store.metadata, let theirs = sides.expected.store.metadata else { return }
        if mine.versionHashes != theirs.versionHashes {
            report.add(Finding(.violation, .metadata, "model version hashes differ from the expected store's"))
        }
    }

    /// One object as compared: its identity sort key, and its values by column name.
    struct ComparedRow {
        var key: String
        var label: String
        var values: [String: String]
    }

    static func compareObjects(_ sides: Sides, _ report: inout CheckReport) throws {
        var tally = KeyedTally()
        try compareObjects(sides, &report, tally: &tally)
    }

    static func compareObjects(_ sides: Sides, _ report: inout CheckReport, tally: inout KeyedTally) throws {
        // Persistent history is Core Data's record of saves, not the app's objects: a copy made by migrate has
        // its own (or none), so it is compared by count only, as a warning.
        let history = Set((sides.actual.store.entities + sides.expected.store.entities).filter(\.isFramework).map(\.name))
        for name in history.sorted() {
            let mine = sides.actual.store.entity(named: name), theirs = sides.expected.store.entity(named: name)
            let count = { (side: (store: InspectedStore, db: Database), entity: InspectedStore.Entity?) throws -> Int in
                guard let entity, side.store.columns[entity.table] != nil else { return 0 }
                return try Int.fetchOne(side.db, sql: "SELECT count(*) FROM \(entity.table.q) WHERE Z_ENT = ?", arguments: [entity.number]) ?? 0
            }
            let (a, b) = (try count(sides.actual, mine), try count(sides.expected, theirs))
            if a != b {
                report.add(Finding(.warning, .history, entity: name, "\(a) persistent-history rows here, \(b) in the expected store"))
            }
        }
        let names = Set(sides.actual.store.entities.map(\.name)).union(sides.expected.store.entities.map(\.name))
            .subtracting(history).sorted()
        for name in names {
            guard let mine = sides.actual.store.entities.first(where: { $0.name == name }),
                  sides.actual.store.columns[mine.table] != nil else {
                report.add(Finding(.violation, .missingEntity, entity: name, "entity is missing from the store"))
                continue
            }
            guard let theirs = sides.expected.store.entities.first(where: { $0.name == name }),
                  sides.expected.store.columns[theirs.table] != nil else {
                report.add(Finding(.violation, .missingEntity, entity: name, "entity is not in the expected store"))
                continue
            }
            let useIdentity = sides.actual.store.identityColumn(mine.table) != nil && sides.expected.store.identityColumn(theirs.table) != nil
            var left = try RowStream(sides.actual.store, sides.actual.db, mine, useIdentity: useIdentity)
            var right = try RowStream(sides.expected.store, sides.expected.db, theirs, useIdentity: useIdentity)
            var a = try left.next(), b = try right.next()
            while a != nil || b != nil {
                if let x = a, b == nil || x.key < b!.key {
                    report.add(Finding(.violation, .extraObject, entity: name, object: x.label, "not in the expected store"))
                    tally.differing[name, default: 0] += 1
                    a = try left.next()
                } else if let y = b, a == nil || y.key < a!.key {
                    report.add(Finding(.violation, .missingObject, entity: name, object: y.label, "in the expected store but missing here"))
                    tally.differing[name, default: 0] += 1
                    b = try right.next()
                } else if let x = a, let y = b {
                    let differing = Set(x.values.keys).union(y.values.keys).sorted().filter { x.values[$0] != y.values[$0] }
                    if differing.isEmpty {
                        tally.equal[name, default: 0] += 1
                    } else {
                        tally.differing[name, default: 0] += 1
                        // Every attribute that differs, with both values ("->ZBOT" is a to-one, by its target's key).
                        let detail = differing.prefix(8).map { "\($0) \(x.values[$0] ?? "absent") vs expected \(y.values[$0] ?? "absent")" }
                            + (differing.count > 8 ? ["and \(differing.count - 8) more attribute(s)"] : [])
                        report.add(Finding(.violation, .changedObject, entity: name, object: x.label, detail.joined(separator: "; ")))
                    }
                    a = try left.next()
                    b = try right.next()
                }
            }
        }
    }

    static func compareLinks(_ sides: Sides, _ report: inout CheckReport) throws {
        let keys = Set(sides.actual.store.joinTables.map(\.key)).union(sides.expected.store.joinTables.map(\.key)).sorted()
        for key in keys {
            var left = try LinkStream(sides.actual.store, sides.actual.db, key)
            var right = try LinkStream(sides.expected.store, sides.expected.db, key)
            var a = try left.next(), b = try right.next()
            while a != nil || b != nil {
                if let x = a, b == nil || x < b! {
                    report.add(Finding(.violation, .extraLink, entity: key, object: "\(x.0) -> \(x.1)", "link not in the expected store"))
                    a = try left.next()
                } else if let y = b, a == nil || y < a! {
                    report.add(Finding(.violation, .missingLink, entity: key, object: "\(y.0) -> \(y.1)", "link missing"))
                    b = try right.next()
                } else {
                    a = try left.next()
                    b = try right.next()
                }
            }
        }
    }

    /// Rows of one entity, sorted by identity, with to-one keys replaced by their targets' identities and
    /// binary values replaced by the digest of their content.
    struct RowStream {
        let cursor: RowCursor
        let identity: String
        let skipped: Set<String>
        let store: InspectedStore

        init(_ store: InspectedStore, _ db: Database, _ entity: InspectedStore.Entity, useIdentity: Bool) throws {
            self.store = store
            identity = useIdentity ? store.identityColumn(entity.table) ?? "Z_PK" : "Z_PK"
            let toOne = store.toOneColumns(entity.table)
            var select = ["e.*"]
            var joins: [String] = []
            for (index, relationship) in toOne.enumerated() {
                let targetIdentity = store.identityColumn(relationship.destinationTable) ?? "Z_PK"
                select.append("r\(index).\(targetIdentity.q) AS \(("->" + relationship.column).q)")
                joins.append("LEFT JOIN \(relationship.destinationTable.q) r\(index) ON r\(index).Z_PK = e.\(relationship.column.q)")
            }
            skipped = Set(["Z_PK", "Z_ENT", "Z_OPT"] + toOne.map(\.column))
            cursor = try Row.fetchCursor(db, sql: """
                SELECT \(select.joined(separator: ", ")) FROM \(entity.table.q) e \(joins.joined(separator: " "))
                WHERE e.Z_ENT = ? ORDER BY e.\(identity.q), e.Z_PK
                """, arguments: [entity.number])
        }

        mutating func next() throws -> ComparedRow? {
            guard let row = try cursor.next() else { return nil }
            let id: DatabaseValue = row[identity]
            var values: [String: String] = [:]
            for column in row.columnNames where !skipped.contains(column) && column != identity {
                values[column] = Digest.describe(row[column], store: store)
            }
            return ComparedRow(key: Digest.sortKey(id), label: (identity == "Z_PK" ? "Z_PK " : "") + IdentityText.describe(id), values: values)
        }
    }

    struct LinkStream {
        let cursor: RowCursor?

        init(_ store: InspectedStore, _ db: Database, _ key: String) throws {
            guard let join = store.joinTables.first(where: { $0.key == key }),
                  let ownerTable = store.entities.first(where: { $0.name == join.ownerEntity })?.table,
                  let otherTable = store.entities.first(where: { $0.name == join.otherEntity })?.table
            else { cursor = nil; return }
            let ownerIdentity = store.identityColumn(ownerTable) ?? "Z_PK"
            let otherIdentity = store.identityColumn(otherTable) ?? "Z_PK"
            cursor = try Row.fetchCursor(db, sql: """
                SELECT o.\(ownerIdentity.q) AS a, d.\(otherIdentity.q) AS b FROM \(join.name.q) j
                JOIN \(ownerTable.q) o ON o.Z_PK = j.\(join.ownerColumn.q) JOIN \(otherTable.q) d ON d.Z_PK = j.\(join.otherColumn.q)
                ORDER BY a, b
                """)
        }

        mutating func next() throws -> (String, String)? {
            guard let row = try cursor?.next() else { return nil }
            return (IdentityText.describe(row["a"]), IdentityText.describe(row["b"]))
        }
    }
}

/// Content digests and sort keys for compared values.
enum Digest {
    /// A key whose string order is the order SQLite sorted the values in (memcmp for blobs, numeric for integers).
    static func sortKey(_ value: DatabaseValue) -> String {
        if let data = Data.fromDatabaseValue(value), case .blob = value.storage {
            return "b:" + Hex.string(data)
        }
        if let number = Int64.fromDatabaseValue(value) {
            return "i:" + String(format: "%020lld", number &+ Int64.max / 2)
        }
        return "s:" + value.description
    }

    static func describe(_ value: DatabaseValue, store: InspectedStore) -> String {
        guard case .blob(let data) = value.storage else { return value.description }
        switch ExternalDataReference(encoded: data) {
        case .inline(let bytes)?: return content(bytes)
        case .external(let name)?:
            return file(store.files.externalFile(name)) ?? "missing file _EXTERNAL_DATA/\(name)"
        case nil: return content(data)
        }
    }

    static func content(_ data: Data) -> String {
        "\(data.count) bytes sha256:" + Hex.string(SHA256.hash(data: data).prefix(8))
    }

    static func file(_ url: URL) -> String? {
        // Never open what is not a regular file: a FIFO in _EXTERNAL_DATA would block the checker forever.
        var info = stat()
        guard stat(url.path, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        let fd = open(url.path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { close(fd); return nil }
        let handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
        defer { try? handle.close() }
        var hasher = SHA256()
        var total = 0
        while let chunk = try? handle.read(upToCount: 1 << 20), !chunk.isEmpty {
            hasher.update(data: chunk)
            total += chunk.count
        }
        return "\(total) bytes sha256:" + Hex.string(hasher.finalize().prefix(8))
    }
}
