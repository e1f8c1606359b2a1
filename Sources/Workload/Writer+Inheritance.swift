import Foundation
import SeededRandomness
import StoreModel

/// Changes to objects of an entity hierarchy (a store generated with inheritance): inserts of every entity of the
/// hierarchy, so rows of several `Z_ENT`s share the root's table and its keys, and updates and deletes of them.
extension Writer {
    /// The change for `op` when it concerns an item, or nil when the change is a note's (as without inheritance).
    /// Draws from `random` only where the model has a hierarchy, so the stream of other drills is unchanged.
    func itemChange(_ op: String, _ random: inout SeededRandom, mine: [UUID: ManagedObject], order: [UUID], seq: Int,
                    items: [String]) -> Change? {
        guard !items.isEmpty else { return nil }
        let c = configuration
        if op == "insert" {
            guard random.next() % 3 == 0 else { return nil }
            let entity = items[Int(random.next() % UInt64(items.count))]
            var item = StoreGenerator.item(entity, serial: c.index * 1_000_000 + seq, random: &random)
            item.attributes["title"] = .string("w\(c.index)-\(seq) \(entity)")
            return Change(op: op, object: item, write: item)
        }
        guard !order.isEmpty else { return nil }
        let id = order[Int(random.next() % UInt64(order.count))]
        guard let current = mine[id], items.contains(current.entity) else { return nil }
        if op == "delete" { return Change(op: op, object: current, write: current) }
        // Items have no relationships: an update or a link changes attributes, one of the entity's own among them.
        var after = current
        var write = ManagedObject(entity: current.entity, id: id)
        write.attributes["title"] = .string("w\(c.index)-\(seq) edited")
        switch current.entity {
        case "Checklist": write.attributes["entries"] = .integer(Int64(random.next() % 40))
        case "Sketch": write.attributes["strokes"] = .integer(Int64(random.next() % 5_000))
        default: write.attributes["created"] = .date(Double(seq) * 90 + 0.75)
        }
        for (key, value) in write.attributes { after.attributes[key] = value }
        return Change(op: "update", object: after, write: write)
    }
}
