/// Where a hierarchy's entities live: as in a store Core Data wrote, every entity of a hierarchy is stored in the
/// root entity's table `Z<ROOT>`, whose columns are the union of the hierarchy's; `Z_ENT` tells the rows apart,
/// `Z_PRIMARYKEY.Z_SUPER` names each entity's parent, and keys are unique across the hierarchy, so `Z_MAX` is
/// kept on the root's row alone (the sub-entities' rows stay 0).
extension StoreLayout {
    /// The table holding `entity`'s objects: its root entity's.
    public func table(_ entity: String) -> String { Self.tableName(model.root(of: entity)) }

    /// The Z_ENT whose `Z_PRIMARYKEY` row carries `entity`'s `Z_MAX`: its root's.
    public func keyNumber(_ entity: String) -> Int64 { number(model.root(of: entity)) }

    /// `Z_PRIMARYKEY.Z_SUPER` of `entity`: its parent's Z_ENT, 0 for a root.
    public func superNumber(_ entity: String) -> Int64 {
        model.entity(named: entity)?.parent.map { number($0) } ?? 0
    }

    /// Whether `entity` has a table of its own (roots do; sub-entities live in their root's).
    public func ownsTable(_ entity: EntityDescription) -> Bool { model.root(of: entity.name) == entity.name }

    /// A condition on the `Z_ENT` column (with a table alias prefix) that picks `entity`'s own rows where its
    /// table is shared, or nil where the table holds one entity only.
    public func rowFilter(_ entity: String, alias: String = "") -> String? {
        let root = model.root(of: entity)
        guard model.hierarchy(root).count > 1 else { return nil }
        return "\(alias)Z_ENT = \(number(entity))"
    }
}
