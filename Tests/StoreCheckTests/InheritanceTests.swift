import Foundation
import GRDB
import LifeboatTestSupport
import SeededRandomness
import StoreCheck
import StoreModel
import Testing

/// Stores the harness generates with entity inheritance (`generate --inheritance`, `store: {inheritance: true}`)
/// take the layout Core Data gives a hierarchy, and every path of the store layer handles it.
@Suite struct InheritanceTests {
    static func generate(_ scratch: Scratch, _ relative: String = "live/Library.sqlite", objects: Int = 200) throws -> URL {
        let url = scratch.path(relative)
        var generator = StoreGenerator(objects: objects, blobFraction: 0.2, blobSize: 110_000, seed: 3)
        generator.inheritance = true
        try generator.generate(at: url)
        return url
    }

    /// What a hierarchy looks like in a store, read from its bookkeeping alone: for each entity with a parent,
    /// its Z_SUPER, whether it has a table of its own, its Z_MAX; and for each root with sub-entities, whether
    /// its table holds rows of the sub-entities and whether its Z_MAX covers every key in its table.
    struct Shape {
        var subentities: [(name: String, ownTable: Bool, max: Int64, parentExists: Bool)] = []
        var roots: [(name: String, max: Int64, highestKey: Int64, rowEntities: Set<Int64>, members: Set<Int64>)] = []
    }

    static func shape(_ url: URL) throws -> Shape {
        let queue = try DatabaseQueue(path: url.path, configuration: { var c = Configuration(); c.readonly = true; return c }())
        defer { try? queue.close() }
        return try queue.read { db in
            let rows = try Row.fetchAll(db, sql: "SELECT Z_ENT, Z_NAME, Z_SUPER, Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT < 16000")
            let byNumber = Dictionary(uniqueKeysWithValues: rows.map { (($0["Z_ENT"] as Int64), $0) })
            func root(_ number: Int64) -> Int64 {
                var current = number
                var steps = 0
                while let parent = byNumber[current]?["Z_SUPER"] as Int64?, parent != 0, steps < 64 { current = parent; steps += 1 }
                return current
            }
            var shape = Shape()
            for row in rows where (row["Z_SUPER"] as Int64? ?? 0) != 0 {
                let name: String = row["Z_NAME"]
                shape.subentities.append((name, try db.tableExists("Z" + name.uppercased()), row["Z_MAX"] as Int64? ?? 0,
                                          byNumber[row["Z_SUPER"] as Int64] != nil))
            }
            let roots = Set(rows.filter { ($0["Z_SUPER"] as Int64? ?? 0) != 0 }.map { root($0["Z_ENT"]) })
            for number in roots.sorted() {
                guard let row = byNumber[number] else { continue }
                let name: String = row["Z_NAME"]
                let table = "Z" + name.uppercased()
                let members = Set(rows.map { $0["Z_ENT"] as Int64 }.filter { root($0) == number })
                shape.roots.append((name, row["Z_MAX"] as Int64? ?? 0,
                                    try Int64.fetchOne(db, sql: "SELECT coalesce(max(Z_PK), 0) FROM \(table)") ?? 0,
                                    Set(try Int64.fetchAll(db, sql: "SELECT DISTINCT Z_ENT FROM \(table)")), members))
            }
            return shape
        }
    }

    @Test func generatedStoreHasTheLayoutOfARealOne() throws {
        let scratch = try Scratch("inheritance-layout")
        let generated = try Self.shape(try Self.generate(scratch))
        let real = try Self.shape(try RealStoreFixtures.copy("notes-monterey", into: scratch.path("notes")))
        for shape in [real, generated] {
            #expect(!shape.subentities.isEmpty && !shape.roots.isEmpty)
            // Sub-entities: a known parent, no table of their own, no Z_MAX of their own.
            for sub in shape.subentities {
                #expect(sub.parentExists && !sub.ownTable && sub.max == 0, "\(sub)")
            }
            // Roots: one table for the hierarchy, rows of its entities only, one Z_MAX covering every key.
            for root in shape.roots {
                #expect(root.max >= root.highestKey && root.rowEntities.isSubset(of: root.members), "\(root)")
            }
        }
        let item = try #require(generated.roots.first { $0.name == "Item" })
        #expect(item.rowEntities.count == 3, "rows of Item, Checklist and Sketch share ZITEM")
        #expect(item.max == item.highestKey)
        #expect(Set(generated.subentities.map(\.name)) == ["Checklist", "Sketch"])
    }

    @Test func generatedStorePassesCheckWithNoFinding() throws {
        let scratch = try Scratch("inheritance-check")
        let url = try Self.generate(scratch)
        let report = try StoreVerifier.verify(url)
        #expect(report.findings.isEmpty, "\(report.findings)")
        for entity in ["Item", "Checklist", "Sketch"] { #expect((report.objectCounts[entity] ?? 0) > 0, "\(entity)") }
        #expect(report.externalReferences > 0 && report.externalReferences == report.externalFiles)
    }

    @Test func saveFetchUpdateAndDeleteInTheSharedTable() throws {
        let scratch = try Scratch("inheritance-save")
        let url = scratch.path("s/Library.sqlite")
        let store = try PersistentStore(at: url, model: .libraryWithInheritance)
        defer { try? store.close() }
        var random = SeededRandom(seed: 9)
        let objects = ["Item", "Checklist", "Sketch", "Checklist"].enumerated().map {
            StoreGenerator.item($0.element, serial: $0.offset, random: &random)
        }
        let keys = try store.save { context in try objects.map { try context.insert($0) } }
        #expect(keys == [1, 2, 3, 4], "keys are drawn from one sequence across the hierarchy")
        #expect(try store.count("Checklist") == 2 && store.count("Item") == 1 && store.count("Sketch") == 1)
        #expect(try store.objects("Checklist").map(\.id) == [objects[1].id, objects[3].id])
        #expect(try store.object("Sketch", id: objects[1].id) == nil, "a checklist is no sketch")

        var edit = ManagedObject(entity: "Sketch", id: objects[2].id)
        edit.attributes["strokes"] = .integer(7)
        try store.save { context in
            try context.update(edit)
            try context.delete(entity: "Checklist", id: objects[1].id)
        }
        #expect(try store.object("Sketch", id: objects[2].id)?.attributes["strokes"] == .integer(7))
        #expect(try store.count("Checklist") == 1)
        let rows = try store.read { db in
            try Row.fetchAll(db, sql: "SELECT Z_PK, Z_ENT, Z_OPT FROM ZITEM ORDER BY Z_PK").map { [$0[0] as Int64, $0[1] as Int64, $0[2] as Int64] }
        }
        let item = store.layout.number("Item"), checklist = store.layout.number("Checklist"), sketch = store.layout.number("Sketch")
        #expect(rows == [[1, item, 1], [3, sketch, 2], [4, checklist, 1]])
        let maxKeys = try store.read { db in try Int64.fetchAll(db, sql: "SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT IN (?, ?, ?) ORDER BY Z_ENT",
                                                                arguments: [item, checklist, sketch]) }
        #expect(maxKeys == [4, 0, 0])
        try store.close()
        #expect(try StoreVerifier.verify(url).findings.isEmpty)
    }

    @Test func migrateAndReplaceCarryTheHierarchy() throws {
        let scratch = try Scratch("inheritance-migrate")
        let url = try Self.generate(scratch, objects: 120)
        let coordinator = PersistentStoreCoordinator(model: .libraryWithInheritance)
        let store = try coordinator.addStore(at: url)
        let migrated = scratch.path("migrated/Library.sqlite")
        let (destination, report) = try coordinator.migrate(store, to: migrated)
        try coordinator.remove(destination)
        #expect(report.objects == 120)
        let replaced = scratch.path("replaced/Library.sqlite")
        _ = try PersistentStoreCoordinator(model: .libraryWithInheritance).replace(at: replaced, from: url)
        for copy in [migrated, replaced] {
            let comparison = try StoreComparison.compare(copy, against: url)
            #expect(comparison.findings.filter { $0.severity == .violation }.isEmpty, "\(copy.path): \(comparison.findings)")
            #expect(try StoreVerifier.verify(copy).findings.isEmpty)
            #expect(try Self.shape(copy).subentities.allSatisfy { !$0.ownTable && $0.max == 0 })
        }
    }

    @Test func modelsWithABrokenHierarchyAreRefused() throws {
        let id = AttributeDescription("lifeboatID", .uuid, optional: false)
        let orphan = ManagedObjectModel(versionIdentifier: "x", entities: [EntityDescription("A", attributes: [id], parent: "Nowhere")])
        let cycle = ManagedObjectModel(versionIdentifier: "x", entities: [
            EntityDescription("A", attributes: [id], parent: "B"), EntityDescription("B", attributes: [id], parent: "A"),
        ])
        let dropped = ManagedObjectModel(versionIdentifier: "x", entities: [
            EntityDescription("A", attributes: [id, AttributeDescription("t", .string)]),
            EntityDescription("B", attributes: [id], parent: "A"),
        ])
        for model in [orphan, cycle, dropped] { #expect(!model.validationErrors().isEmpty, "\(model.entities.map(\.name))") }
        #expect(ManagedObjectModel.libraryWithInheritance.validationErrors().isEmpty)
    }
}
