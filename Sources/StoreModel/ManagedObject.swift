import Foundation

/// One object as an app sees it: attribute values and relationships by the identities of their targets.
///
/// Relationships name targets by identity, not by `Z_PK`, so objects compare equal across copies of a store even
/// when the copy renumbered its primary keys (as migrate does).
public struct ManagedObject: Sendable, Hashable, Codable {
    public var entity: String
    public var id: UUID
    /// Attribute name -> value; the identity attribute is `id`, not in here.
    public var attributes: [String: AttributeValue]
    /// To-one relationship name -> target identity (absent = nil).
    public var toOne: [String: UUID]
    /// Many-to-many relationship name -> target identities, sorted.
    public var toMany: [String: [UUID]]

    public init(entity: String, id: UUID = UUID(), attributes: [String: AttributeValue] = [:],
                toOne: [String: UUID] = [:], toMany: [String: [UUID]] = [:]) {
        self.entity = entity
        self.id = id
        self.attributes = attributes
        self.toOne = toOne
        self.toMany = toMany.mapValues { $0.sorted { $0.uuidString < $1.uuidString } }
    }

    /// The same object with its relationships left out: migrate inserts every object first, then links them.
    public var withoutRelationships: ManagedObject {
        ManagedObject(entity: entity, id: id, attributes: attributes)
    }
}
