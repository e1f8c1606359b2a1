/// Where each part of a model lives in Core Data's SQLite layout.
///
/// Table and column names follow Core Data: entity `Note` -> table `ZNOTE`, attribute `title` -> column `ZTITLE`,
/// to-one `folder` -> key column `ZFOLDER` with an index, many-to-many `Note.tags` <-> `Tag.notes` -> join table
/// `Z_<n>TAGS` with columns `Z_<n>NOTES` and `Z_<m>TAGS`, where n and m are the entities' `Z_ENT` numbers.
public struct StoreLayout: Sendable {
    public let model: ManagedObjectModel
    /// Entity name -> Z_ENT, as recorded in Z_PRIMARYKEY.
    public let entityNumbers: [String: Int64]

    public init(model: ManagedObjectModel, entityNumbers: [String: Int64]) {
        self.model = model
        self.entityNumbers = entityNumbers
    }

    /// The numbering a new store gets: from 1, root entities in name order, each followed by its hierarchy
    /// (parents before children), as Core Data numbers them; without inheritance, simply name order.
    public static func fresh(_ model: ManagedObjectModel) -> StoreLayout {
        var numbers: [String: Int64] = [:]
        let ordered = model.entities.filter { model.root(of: $0.name) == $0.name }.flatMap { model.hierarchy($0.name) }
        for entity in ordered + model.entities where numbers[entity.name] == nil {
            numbers[entity.name] = Int64(numbers.count + 1)
        }
        return StoreLayout(model: model, entityNumbers: numbers)
    }

    public static func tableName(_ entity: String) -> String { "Z" + entity.uppercased() }
    public static func columnName(_ property: String) -> String { "Z" + property.uppercased() }

    public func number(_ entity: String) -> Int64 { entityNumbers[entity] ?? 0 }

    /// A many-to-many relationship's join table.
    public struct JoinTable: Sendable, Hashable {
        public var name: String
        /// The entity whose relationship names the table, and its key column.
        public var ownerEntity: String
        public var ownerRelationship: String
        public var ownerColumn: String
        /// The other entity and its key column.
        public var destinationEntity: String
        public var destinationColumn: String
    }

    /// Whether `relationship` of `entity` is the side that names its join table: the side whose entity (then
    /// relationship) name sorts first, so each many-to-many relationship gets exactly one table.
    public func ownsJoinTable(_ entity: String, _ relationship: RelationshipDescription) -> Bool {
        guard relationship.isToMany,
              let inverse = model.entity(named: relationship.destination)?.relationship(named: relationship.inverse),
              inverse.isToMany
        else { return false }
        return (entity, relationship.name) < (relationship.destination, relationship.inverse)
    }

    public var joinTables: [JoinTable] {
        model.entities.flatMap { entity in
            entity.relationships.filter { ownsJoinTable(entity.name, $0) }.map { relationship in
                JoinTable(
                    name: "Z_\(number(entity.name))\(relationship.name.uppercased())",
                    ownerEntity: entity.name,
                    ownerRelationship: relationship.name,
                    ownerColumn: "Z_\(number(entity.name))\(relationship.inverse.uppercased())",
                    destinationEntity: relationship.destination,
                    destinationColumn: "Z_\(number(relationship.destination))\(relationship.name.uppercased())")
            }
        }
    }

    public func joinTable(owner entity: String, relationship: String) -> JoinTable? {
        joinTables.first { $0.ownerEntity == entity && $0.ownerRelationship == relationship }
    }

    /// To-one relationships of an entity: each is a key column in the entity's table.
    public func toOneRelationships(_ entity: EntityDescription) -> [RelationshipDescription] {
        entity.relationships.filter { !$0.isToMany }
    }

    /// Column declarations of an entity's table, bookkeeping columns first as Core Data writes them; a root
    /// entity's table has the columns of its whole hierarchy (each once).
    public func columns(_ entity: EntityDescription) -> [(name: String, type: String)] {
        var columns: [(String, String)] = [("Z_PK", "INTEGER PRIMARY KEY"), ("Z_ENT", "INTEGER"), ("Z_OPT", "INTEGER")]
        var seen: Set<String> = []
        let members = model.hierarchy(model.root(of: entity.name))
        for member in members.isEmpty ? [entity] : members {
            for relationship in toOneRelationships(member) where seen.insert(Self.columnName(relationship.name)).inserted {
                columns.append((Self.columnName(relationship.name), "INTEGER"))
            }
        }
        for member in members.isEmpty ? [entity] : members {
            for attribute in member.attributes where seen.insert(Self.columnName(attribute.name)).inserted {
                columns.append((Self.columnName(attribute.name), attribute.type.columnType))
            }
        }
        return columns
    }

    /// The DDL that creates an entity's table (its root's, for a sub-entity) and its indexes.
    public func entityDDL(_ entity: EntityDescription) -> [String] {
        let table = self.table(entity.name)
        let columnList = columns(entity).map { "\($0.name) \($0.type)" }.joined(separator: ", ")
        var statements = ["CREATE TABLE \(table) ( \(columnList) )"]
        for relationship in toOneRelationships(entity) {
            let column = Self.columnName(relationship.name)
            statements.append("CREATE INDEX \(table)_\(column)_INDEX ON \(table) (\(column))")
        }
        let identity = Self.columnName(model.identityAttribute)
        statements.append("CREATE INDEX \(table)_\(identity)_INDEX ON \(table) (\(identity))")
        return statements
    }

    public func joinTableDDL(_ join: JoinTable) -> [String] {
        [
            "CREATE TABLE \(join.name) ( \(join.ownerColumn) INTEGER, \(join.destinationColumn) INTEGER, PRIMARY KEY (\(join.ownerColumn), \(join.destinationColumn)) )",
            "CREATE INDEX \(join.name)_\(join.destinationColumn)_INDEX ON \(join.name) (\(join.destinationColumn), \(join.ownerColumn))",
        ]
    }

    /// Core Data's bookkeeping tables.
    public static let bookkeepingDDL = [
        "CREATE TABLE Z_PRIMARYKEY (Z_ENT INTEGER PRIMARY KEY, Z_NAME VARCHAR, Z_SUPER INTEGER, Z_MAX INTEGER)",
        "CREATE TABLE Z_METADATA (Z_VERSION INTEGER PRIMARY KEY, Z_UUID VARCHAR(255), Z_PLIST BLOB)",
        "CREATE TABLE Z_MODELCACHE (Z_CONTENT BLOB)",
    ]
}
