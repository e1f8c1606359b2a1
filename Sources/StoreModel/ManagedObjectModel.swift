import Crypto
import Foundation

/// Attribute types of the model, each mapped to the SQLite column type Core Data uses.
public enum AttributeType: String, Sendable, Codable, CaseIterable {
    case integer64, double, string, date, bool, uuid, binary

    /// Column type in the `Z<ENTITY>` table, as Core Data declares it.
    public var columnType: String {
        switch self {
        case .integer64, .bool: "INTEGER"
        case .double: "FLOAT"
        case .string: "VARCHAR"
        case .date: "TIMESTAMP"
        case .uuid, .binary: "BLOB"
        }
    }
}

/// One attribute of an entity.
public struct AttributeDescription: Sendable, Codable, Hashable {
    public var name: String
    public var type: AttributeType
    public var isOptional: Bool
    /// "Allows External Storage": large values go to files in the store's support folder.
    public var allowsExternalStorage: Bool
    /// The model's default value (not part of the version hash, as in Core Data): what an inferred migration
    /// gives existing rows when the attribute is new and required.
    public var defaultValue: AttributeValue?

    public init(_ name: String, _ type: AttributeType, optional: Bool = true, externalStorage: Bool = false,
                defaultValue: AttributeValue? = nil) {
        self.name = name
        self.type = type
        self.isOptional = optional
        self.allowsExternalStorage = externalStorage
        self.defaultValue = defaultValue
    }
}

/// One relationship of an entity. Every relationship has an inverse, as Core Data recommends.
public struct RelationshipDescription: Sendable, Codable, Hashable {
    public var name: String
    public var destination: String
    public var inverse: String
    public var isToMany: Bool

    public init(_ name: String, to destination: String, inverse: String, toMany: Bool) {
        self.name = name
        self.destination = destination
        self.inverse = inverse
        self.isToMany = toMany
    }
}

/// One entity: a table `Z<NAME>` in the store.
public struct EntityDescription: Sendable, Codable, Hashable {
    public var name: String
    public var attributes: [AttributeDescription]
    public var relationships: [RelationshipDescription]
    /// The parent entity (entity inheritance), or nil for a root. A sub-entity lists its inherited attributes
    /// too (as `NSEntityDescription.attributesByName` does) and lives in its root entity's table; see
    /// `StoreLayout+Inheritance.swift`.
    public var parent: String?

    public init(_ name: String, attributes: [AttributeDescription], relationships: [RelationshipDescription] = [],
                parent: String? = nil) {
        self.name = name
        self.attributes = attributes
        self.relationships = relationships
        self.parent = parent
    }

    public func attribute(named name: String) -> AttributeDescription? {
        attributes.first { $0.name == name }
    }

    public func relationship(named name: String) -> RelationshipDescription? {
        relationships.first { $0.name == name }
    }

    /// The 32-byte version hash Core Data records per entity in `NSStoreModelVersionHashes`.
    ///
    /// Like Core Data's, it covers what changes the store layout (names, types, optionality, relationship shape)
    /// and nothing else, so two models with the same layout are compatible.
    public var versionHash: Data {
        var text = "entity:\(name)"
        // Only a sub-entity's hash names its parent, so the hashes of models without inheritance never change.
        if let parent { text += "|parent:\(parent)" }
        for attribute in attributes.sorted(by: { $0.name < $1.name }) {
            text += "|attr:\(attribute.name):\(attribute.type.rawValue):\(attribute.isOptional):\(attribute.allowsExternalStorage)"
        }
        for relationship in relationships.sorted(by: { $0.name < $1.name }) {
            text += "|rel:\(relationship.name):\(relationship.destination):\(relationship.inverse):\(relationship.isToMany)"
        }
        return Data(SHA256.hash(data: Data(text.utf8)))
    }
}

/// A managed object model: entities plus the identity attribute that makes duplicates detectable.
///
/// Every entity carries `identityAttribute` (a UUID), which Core Data apps commonly add and which lets the harness
/// tell "the same object twice" (a migrate-append duplicate) from "two objects".
public struct ManagedObjectModel: Sendable, Codable, Hashable {
    public var versionIdentifier: String
    public var entities: [EntityDescription]
    public var identityAttribute: String

    public init(versionIdentifier: String, entities: [EntityDescription], identityAttribute: String = "lifeboatID") {
        self.versionIdentifier = versionIdentifier
        self.entities = entities.sorted { $0.name < $1.name }
        self.identityAttribute = identityAttribute
    }

    public func entity(named name: String) -> EntityDescription? {
        entities.first { $0.name == name }
    }

    /// Entity name -> version hash, as stored in the metadata.
    public var versionHashes: [String: Data] {
        Dictionary(uniqueKeysWithValues: entities.map { ($0.name, $0.versionHash) })
    }

    /// Checks that relationships name existing entities and matching inverses; returns the problems found.
    public func validationErrors() -> [String] {
        var errors: [String] = inheritanceErrors()
        for entity in entities {
            if entity.attribute(named: identityAttribute)?.type != .uuid {
                errors.append("entity \(entity.name) lacks the uuid identity attribute \(identityAttribute)")
            }
            for relationship in entity.relationships {
                guard let destination = self.entity(named: relationship.destination) else {
                    errors.append("\(entity.name).\(relationship.name) points to unknown entity \(relationship.destination)")
                    continue
                }
                guard let inverse = destination.relationship(named: relationship.inverse),
                      inverse.destination == entity.name, inverse.inverse == relationship.name
                else {
                    errors.append("\(entity.name).\(relationship.name) has no matching inverse \(relationship.inverse)")
                    continue
                }
            }
        }
        return errors
    }
}
