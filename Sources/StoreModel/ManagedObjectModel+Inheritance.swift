/// Entity inheritance, as Core Data models it: an entity names its parent; a hierarchy's entities share the root
/// entity's table (told apart by `Z_ENT`) and its primary keys (`Z_MAX` kept on the root's `Z_PRIMARYKEY` row).
extension ManagedObjectModel {
    /// The root of `entity`'s hierarchy (itself when it has no parent). A broken chain (unknown parent, a cycle)
    /// stops where it breaks; `inheritanceErrors` reports it and opening a store with such a model fails.
    public func root(of entity: String) -> String {
        var current = entity
        var seen: Set<String> = [entity]
        while let parent = self.entity(named: current)?.parent, self.entity(named: parent) != nil, seen.insert(parent).inserted {
            current = parent
        }
        return current
    }

    /// The direct sub-entities of `entity`, in name order.
    public func subentities(of entity: String) -> [EntityDescription] {
        entities.filter { $0.parent == entity }
    }

    /// The entities of the hierarchy rooted at `root`, parents before children (pre-order, names in order):
    /// the order in which Core Data numbers them.
    public func hierarchy(_ root: String) -> [EntityDescription] {
        guard let entity = entity(named: root) else { return [] }
        var result = [entity]
        var seen: Set<String> = [root]
        var index = 0
        while index < result.count {
            let children = subentities(of: result[index].name).filter { seen.insert($0.name).inserted }
            result.insert(contentsOf: children, at: index + 1)
            index += 1
        }
        return result
    }

    /// Whether any entity has a parent.
    public var hasInheritance: Bool { entities.contains { $0.parent != nil } }

    /// Parents that do not exist, cycles, and sub-entities that drop an attribute of their parent.
    func inheritanceErrors() -> [String] {
        var errors: [String] = []
        for entity in entities {
            guard let parentName = entity.parent else { continue }
            guard let parent = self.entity(named: parentName) else {
                errors.append("entity \(entity.name) has unknown parent \(parentName)")
                continue
            }
            if root(of: entity.name) == entity.name || self.entity(named: root(of: entity.name))?.parent != nil {
                errors.append("entity \(entity.name) is in an inheritance cycle")
            }
            for attribute in parent.attributes where entity.attribute(named: attribute.name) != attribute {
                errors.append("sub-entity \(entity.name) lacks or changes inherited attribute \(attribute.name)")
            }
            if !entity.relationships.isEmpty || !parent.relationships.isEmpty {
                errors.append("entity \(entity.name): relationships within a hierarchy are not modelled")
            }
        }
        return errors
    }
}

extension ManagedObjectModel {
    /// A concrete parent `Item` and two sub-entities with attributes of their own (one allows external storage),
    /// so all three share `ZITEM` and its keys, as in the stores Core Data writes (Apple Notes keeps a dozen
    /// entities in `ZICCLOUDSYNCINGOBJECT`).
    static func itemHierarchy(identity: AttributeDescription) -> [EntityDescription] {
        let item = [identity, AttributeDescription("title", .string), AttributeDescription("created", .date)]
        return [
            EntityDescription("Item", attributes: item),
            EntityDescription("Checklist", attributes: item + [
                AttributeDescription("entries", .integer64), AttributeDescription("done", .bool),
            ], parent: "Item"),
            EntityDescription("Sketch", attributes: item + [
                AttributeDescription("strokes", .integer64), AttributeDescription("image", .binary, externalStorage: true),
            ], parent: "Item"),
        ]
    }

    /// The concrete entities of every hierarchy (roots with sub-entities included), in name order: what writers
    /// insert, update and delete when a store has inheritance.
    public var hierarchyEntities: [String] {
        entities.filter { $0.parent != nil || !subentities(of: $0.name).isEmpty }.map(\.name)
    }
}
