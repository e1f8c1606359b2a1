import Foundation
import SeededRandomness

/// Objects of the library's `Item` hierarchy, drawn from a seed: generated stores and writers share them, so a
/// store with inheritance holds rows of every entity of the hierarchy in the root's table.
extension StoreGenerator {
    /// `count` items, taking the hierarchy's entities in turn.
    static func items(_ count: Int, model: ManagedObjectModel, random: inout SeededRandom) -> [ManagedObject] {
        let entities = model.hierarchyEntities
        guard !entities.isEmpty else { return [] }
        return (0..<count).map { serial in
            item(entities[serial % entities.count], serial: serial, random: &random)
        }
    }

    /// One object of `entity` (`Item`, `Checklist` or `Sketch`) with seeded attributes; a sketch's image is small
    /// (inline), so the generator's attachment settings stay what they govern.
    public static func item(_ entity: String, serial: Int, random: inout SeededRandom) -> ManagedObject {
        var item = ManagedObject(entity: entity, id: random.uuid(), attributes: [
            "title": .string("\(entity) \(serial)"),
            "created": .date(Double(serial) * 90 + 0.25),
        ])
        switch entity {
        case "Checklist":
            item.attributes["entries"] = .integer(Int64(random.next() % 40))
            item.attributes["done"] = .bool(random.next() % 2 == 0)
        case "Sketch":
            item.attributes["strokes"] = .integer(Int64(random.next() % 5_000))
            item.attributes["image"] = .binary(Data(random.bytes(64 + Int(random.next() % 512))))
        default:
            break
        }
        return item
    }
}
