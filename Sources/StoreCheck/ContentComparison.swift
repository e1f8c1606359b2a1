import Crypto
import Foundation
import GRDB
import StoreModel

/// Equality by content, for stores with no identity attribute (every store an app wrote): objects are matched
/// by what they hold, not by `Z_PK`, so a copy that renumbered its keys (as migrate does) is told apart from one
/// that lost, gained or duplicated objects.
///
/// Each object gets a digest of its attribute values (external data by the SHA-256 of its bytes), its to-one
/// targets (by the digest of the target's own attributes) and its many-to-many targets (likewise, sorted). Two
/// stores hold the same objects when, entity by entity, they hold the same digests the same number of times.
/// This needs one digest per object in memory (32 bytes each), which is why it runs only when matching by
/// `Z_PK` found a difference.
enum ContentComparison {
    typealias Digest32 = Data

    /// Digests of one store: table -> Z_PK -> digest of the row's own attributes, then per entity the multiset
    /// of full digests.
    struct Digests {
        var attributes: [String: [Int64: Digest32]] = [:]
        var objects: [String: [Digest32: Int]] = [:]
        var links: [String: [Digest32: Int]] = [:]
    }

    static func compare(_ sides: StoreComparison.Sides, _ report: inout CheckReport) throws {
        let mine = try digests(sides.actual.store, sides.actual.db)
        let theirs = try digests(sides.expected.store, sides.expected.db)
        var renumbered = 0
        for name in Set(mine.objects.keys).union(theirs.objects.keys).sorted() {
            let actual = mine.objects[name] ?? [:], expected = theirs.objects[name] ?? [:]
            var missing = 0, extra = 0, duplicated = 0
            for (digest, count) in actual {
                let wanted = expected[digest] ?? 0
                if wanted == 0 { extra += count } else if count > wanted { duplicated += count - wanted }
            }
            for (digest, count) in expected { missing += max(0, count - (actual[digest] ?? 0)) }
            if duplicated > 0 {
                report.add(Finding(.violation, .duplicateObject, entity: name,
                                   "\(duplicated) object(s) are stored more than once as often as in the expected store (same content, other keys)"))
            }
            if extra > 0 {
                report.add(Finding(.violation, .extraObject, entity: name, "\(extra) object(s) with content the expected store does not hold"))
            }
            if missing > 0 {
                report.add(Finding(.violation, .missingObject, entity: name, "\(missing) object(s) of the expected store have no match by content"))
            }
            if missing == 0, extra == 0, duplicated == 0 { renumbered += actual.values.reduce(0, +) }
        }
        for key in Set(mine.links.keys).union(theirs.links.keys).sorted() {
            let actual = mine.links[key] ?? [:], expected = theirs.links[key] ?? [:]
            let extra = actual.reduce(0) { $0 + max(0, $1.value - (expected[$1.key] ?? 0)) }
            let missing = expected.reduce(0) { $0 + max(0, $1.value - (actual[$1.key] ?? 0)) }
            if extra > 0 { report.add(Finding(.violation, .extraLink, entity: key, "\(extra) link(s) not in the expected store")) }
            if missing > 0 { report.add(Finding(.violation, .missingLink, entity: key, "\(missing) link(s) missing")) }
        }
        if renumbered > 0 {
            report.add(Finding(.warning, .renumberedObjects,
                               "\(renumbered) object(s) match the expected store by content under other primary keys (same objects, renumbered)"))
        }
    }

    static func digests(_ store: InspectedStore, _ db: Database) throws -> Digests {
        var result = Digests()
        let schema = store.schema
        // Pass 1: every row's own attributes.
        for (table, _) in schema.entityTables where schema.columns[table] != nil {
            let skipped = ownColumnsSkipped(schema, table)
            var byKey: [Int64: Digest32] = [:]
            let rows = try Row.fetchCursor(db, sql: "SELECT * FROM \(table.q)")
            while let row = try rows.next() {
                guard let key = SafeColumn.integer(row, "Z_PK") else { continue }
                var parts: [String] = []
                for column in row.columnNames.sorted() where !skipped.contains(column) {
                    parts.append(column + "=" + Digest.describe(SafeColumn.value(row, column), store: store))
                }
                byKey[key] = hash(parts)
            }
            result.attributes[table] = byKey
        }
        // Many-to-many targets of each row, by the targets' attribute digests.
        var linked: [String: [Int64: [Digest32]]] = [:]
        for join in schema.joinTables {
            guard let ownerTable = schema.entity(named: join.ownerEntity)?.table,
                  let otherTable = schema.entity(named: join.otherEntity)?.table else { continue }
            let rows = try Row.fetchCursor(db, sql: "SELECT \(join.ownerColumn.q) AS a, \(join.otherColumn.q) AS b FROM \(join.name.q)")
            var pairs: [Digest32: Int] = [:]
            while let row = try rows.next() {
                guard let a = SafeColumn.integer(row, "a"), let b = SafeColumn.integer(row, "b") else { continue }
                let left = result.attributes[ownerTable]?[a] ?? Data("dangling".utf8)
                let right = result.attributes[otherTable]?[b] ?? Data("dangling".utf8)
                linked[ownerTable + "." + join.key, default: [:]][a, default: []].append(right)
                linked[otherTable + "." + join.key, default: [:]][b, default: []].append(left)
                pairs[hash([left.base64EncodedString(), right.base64EncodedString()]), default: 0] += 1
            }
            result.links[join.key] = pairs
        }
        // Pass 2: every object's full digest: attributes, to-one targets, many-to-many targets. History rows are
        // compared by count elsewhere.
        for (table, entities) in schema.entityTables where schema.columns[table] != nil && !entities.contains(where: \.isFramework) {
            let toOnes = schema.toOnes[table] ?? []
            let names = Dictionary(entities.map { ($0.number, $0.name) }, uniquingKeysWith: { first, _ in first })
            let joinKeys = schema.joinTables.map(\.key).filter { linked[table + "." + $0] != nil }
            let select = (["Z_PK", "Z_ENT"] + toOnes.map(\.column)).map(\.q).joined(separator: ", ")
            let rows = try Row.fetchCursor(db, sql: "SELECT \(select) FROM \(table.q)")
            while let row = try rows.next() {
                guard let key = SafeColumn.integer(row, "Z_PK"), let own = result.attributes[table]?[key] else { continue }
                let entity = SafeColumn.integer(row, "Z_ENT").flatMap { names[$0] } ?? "?"
                var parts = [entity, own.base64EncodedString()]
                for toOne in toOnes {
                    let value = SafeColumn.value(row, toOne.column)
                    guard case .int64(let target) = value.storage else { parts.append(toOne.column + "->nil"); continue }
                    if let destination = toOne.destinationTable {
                        let digest = result.attributes[destination]?[target]?.base64EncodedString() ?? "dangling"
                        parts.append(toOne.column + "->" + digest)
                    } else {
                        // A key column whose target table the layout does not tell: only whether it is set counts.
                        parts.append(toOne.column + "->set")
                    }
                }
                for joinKey in joinKeys {
                    let targets = (linked[table + "." + joinKey]?[key] ?? []).map { $0.base64EncodedString() }.sorted()
                    parts.append(joinKey + "=>" + targets.joined(separator: ","))
                }
                result.objects[entity, default: [:]][hash(parts), default: 0] += 1
            }
        }
        return result
    }

    /// Columns left out of an object's own digest: bookkeeping, key columns (compared by their targets) and the
    /// `Z<n>_<REL>` columns naming the target's entity.
    static func ownColumnsSkipped(_ schema: StoreSchema, _ table: String) -> Set<String> {
        var skipped: Set = ["Z_PK", "Z_ENT", "Z_OPT"]
        for toOne in schema.toOnes[table] ?? [] { skipped.insert(toOne.column) }
        for column in schema.columns[table] ?? [] where StoreSchema.isEntityTypeColumn(column.name) {
            skipped.insert(column.name)
        }
        if schema.entityTables.first(where: { $0.table == table })?.entities.contains(where: \.isFramework) == true {
            // History rows name the changed object by key (ZENTITYPK): renumbered with it, so not content.
            skipped.insert("ZENTITYPK")
        }
        return skipped
    }

    static func hash(_ parts: [String]) -> Digest32 {
        var hasher = SHA256()
        for part in parts {
            hasher.update(data: Data(part.utf8))
            hasher.update(data: Data([0]))
        }
        return Data(hasher.finalize())
    }
}
