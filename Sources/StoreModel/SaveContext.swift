import Foundation
import GRDB

/// The changes of one save, applied inside one SQLite transaction (Core Data's `save()`).
///
/// Primary keys come from `Z_PRIMARYKEY.Z_MAX`, as Core Data assigns them itself; every update bumps `Z_OPT`.
/// External data files are written before the commit and old ones are removed only after it, as Core Data does.
public final class SaveContext {
    let db: Database
    let store: PersistentStore
    /// Identity -> Z_PK of objects inserted by this save: preferred over a lookup, so migrate links the objects it
    /// inserted even when the destination already holds others with the same identity.
    var insertedKeys: [String: [UUID: Int64]] = [:]
    var writtenFiles: [String] = []
    var obsoleteFiles: [String] = []
    public private(set) var inserted = 0
    public private(set) var updated = 0
    public private(set) var deleted = 0
    /// What this save changed, for persistent history (recorded only where the store has its tables).
    var changes: [PersistentHistory.Change] = []
    /// Set by the CloudKit mirror for its imports: recorded under its own author and not marked for export.
    public var isMirrorImport = false

    init(db: Database, store: PersistentStore) {
        self.db = db
        self.store = store
    }

    var layout: StoreLayout { store.layout }

    /// Runs a statement through the connection's statement cache: a save runs the same few statements for every
    /// object it writes, and preparing each anew (GRDB's authorizer is called for every column it reads) was the
    /// largest cost of generating a store and of a writer's commit.
    private func run(_ sql: String, _ arguments: StatementArguments) throws {
        try db.cachedStatement(sql: sql).execute(arguments: arguments)
    }

    private func fetchKey(_ sql: String, _ arguments: StatementArguments) throws -> Int64? {
        try Int64.fetchOne(db.cachedStatement(sql: sql), arguments: arguments)
    }

    func entity(_ name: String) throws -> EntityDescription {
        guard let entity = store.model.entity(named: name) else { throw StoreError.invalidObject("unknown entity \(name)") }
        return entity
    }

    /// Z_PK of the object with this identity: one inserted by this save first, else the first row in the table.
    public func primaryKey(_ entity: String, _ id: UUID) throws -> Int64? {
        if let key = insertedKeys[entity]?[id] { return key }
        let table = layout.table(entity)
        let column = StoreLayout.columnName(store.model.identityAttribute)
        let own = layout.rowFilter(entity).map { " AND \($0)" } ?? ""
        return try fetchKey("SELECT Z_PK FROM \(table) WHERE \(column) = ?\(own) ORDER BY Z_PK LIMIT 1", [ColumnCoding.uuidBytes(id)])
    }

    /// Inserts an object (with its relationships, whose targets must exist) and returns its Z_PK.
    @discardableResult
    public func insert(_ object: ManagedObject) throws -> Int64 {
        let entity = try entity(object.entity)
        let number = layout.number(entity.name)
        // Keys are unique across a hierarchy: a sub-entity's come from its root's Z_MAX.
        let keyNumber = layout.keyNumber(entity.name)
        try run("UPDATE Z_PRIMARYKEY SET Z_MAX = Z_MAX + 1 WHERE Z_ENT = ?", [keyNumber])
        guard let key = try fetchKey("SELECT Z_MAX FROM Z_PRIMARYKEY WHERE Z_ENT = ?", [keyNumber]) else {
            throw StoreError.invalidObject("no Z_PRIMARYKEY row for \(entity.name)")
        }
        var names = ["Z_PK", "Z_ENT", "Z_OPT", StoreLayout.columnName(store.model.identityAttribute)]
        var values: [DatabaseValue] = [key.databaseValue, number.databaseValue, 1.databaseValue,
                                       ColumnCoding.uuidBytes(object.id).databaseValue]
        for (name, value) in object.attributes.sorted(by: { $0.key < $1.key }) where name != store.model.identityAttribute {
            guard let attribute = entity.attribute(named: name) else {
                throw StoreError.invalidObject("\(entity.name) has no attribute \(name)")
            }
            names.append(StoreLayout.columnName(name))
            values.append(try encode(value, attribute))
        }
        let placeholders = Array(repeating: "?", count: names.count).joined(separator: ", ")
        try run("INSERT INTO \(layout.table(entity.name)) (\(names.joined(separator: ", "))) VALUES (\(placeholders))", StatementArguments(values))
        insertedKeys[entity.name, default: [:]][object.id] = key
        try link(object, key: key, entity: entity)
        changes.append(PersistentHistory.Change(kind: .insert, entity: number, key: key))
        inserted += 1
        return key
    }

    /// Sets the relationships `object` names on the stored object with its identity.
    public func link(_ object: ManagedObject) throws {
        let entity = try entity(object.entity)
        guard let key = try primaryKey(entity.name, object.id) else { throw StoreError.unknownObject(entity: entity.name, id: object.id) }
        try link(object, key: key, entity: entity)
    }

    func link(_ object: ManagedObject, key: Int64, entity: EntityDescription) throws {
        let table = layout.table(entity.name)
        for (name, target) in object.toOne {
            guard let relationship = entity.relationship(named: name), !relationship.isToMany else {
                throw StoreError.invalidObject("\(entity.name) has no to-one relationship \(name)")
            }
            guard let targetKey = try primaryKey(relationship.destination, target) else {
                throw StoreError.unknownObject(entity: relationship.destination, id: target)
            }
            try run("UPDATE \(table) SET \(StoreLayout.columnName(name)) = ? WHERE Z_PK = ?", [targetKey, key])
        }
        for (name, targets) in object.toMany {
            guard let relationship = entity.relationship(named: name), relationship.isToMany else {
                throw StoreError.invalidObject("\(entity.name) has no to-many relationship \(name)")
            }
            let owns = layout.ownsJoinTable(entity.name, relationship)
            let join = owns ? layout.joinTable(owner: entity.name, relationship: name)
                            : layout.joinTable(owner: relationship.destination, relationship: relationship.inverse)
            guard let join else { throw StoreError.invalidObject("\(entity.name).\(name) is not many-to-many") }
            let myColumn = owns ? join.ownerColumn : join.destinationColumn
            let otherColumn = owns ? join.destinationColumn : join.ownerColumn
            try run("DELETE FROM \(join.name) WHERE \(myColumn) = ?", [key])
            for target in targets {
                guard let targetKey = try primaryKey(relationship.destination, target) else {
                    throw StoreError.unknownObject(entity: relationship.destination, id: target)
                }
                try run("INSERT OR IGNORE INTO \(join.name) (\(myColumn), \(otherColumn)) VALUES (?, ?)", [key, targetKey])
            }
        }
    }

    /// Updates the attributes and relationships `object` names (others keep their values) and bumps Z_OPT.
    public func update(_ object: ManagedObject) throws {
        let entity = try entity(object.entity)
        guard let key = try primaryKey(entity.name, object.id) else { throw StoreError.unknownObject(entity: entity.name, id: object.id) }
        let table = layout.table(entity.name)
        var assignments = ["Z_OPT = Z_OPT + 1"]
        var values: [DatabaseValue] = []
        for (name, value) in object.attributes.sorted(by: { $0.key < $1.key }) where name != store.model.identityAttribute {
            guard let attribute = entity.attribute(named: name) else {
                throw StoreError.invalidObject("\(entity.name) has no attribute \(name)")
            }
            if attribute.allowsExternalStorage { try forgetExternalFile(table: table, column: StoreLayout.columnName(name), key: key) }
            assignments.append("\(StoreLayout.columnName(name)) = ?")
            values.append(try encode(value, attribute))
        }
        values.append(key.databaseValue)
        try run("UPDATE \(table) SET \(assignments.joined(separator: ", ")) WHERE Z_PK = ?", StatementArguments(values))
        try link(object, key: key, entity: entity)
        changes.append(PersistentHistory.Change(kind: .update, entity: layout.number(entity.name), key: key))
        updated += 1
    }

    /// Deletes an object: to-one references to it are nullified and its join rows removed (the nullify rule).
    public func delete(entity name: String, id: UUID) throws {
        let entity = try entity(name)
        guard let key = try primaryKey(entity.name, id) else { throw StoreError.unknownObject(entity: name, id: id) }
        let table = layout.table(entity.name)
        for attribute in entity.attributes where attribute.allowsExternalStorage {
            try forgetExternalFile(table: table, column: StoreLayout.columnName(attribute.name), key: key)
        }
        for other in store.model.entities {
            for relationship in layout.toOneRelationships(other) where relationship.destination == entity.name {
                let column = StoreLayout.columnName(relationship.name)
                try run("UPDATE \(layout.table(other.name)) SET \(column) = NULL, Z_OPT = Z_OPT + 1 WHERE \(column) = ?", [key])
            }
        }
        for join in layout.joinTables {
            if join.ownerEntity == entity.name { try run("DELETE FROM \(join.name) WHERE \(join.ownerColumn) = ?", [key]) }
            if join.destinationEntity == entity.name { try run("DELETE FROM \(join.name) WHERE \(join.destinationColumn) = ?", [key]) }
        }
        try run("DELETE FROM \(table) WHERE Z_PK = ?", [key])
        insertedKeys[entity.name]?[id] = nil
        changes.append(PersistentHistory.Change(kind: .delete, entity: layout.number(entity.name), key: key))
        deleted += 1
    }

    func forgetExternalFile(table: String, column: String, key: Int64) throws {
        guard let data = try Data.fetchOne(db, sql: "SELECT \(column) FROM \(table) WHERE Z_PK = ?", arguments: [key]),
              case .external(let name)? = ExternalDataReference(encoded: data)
        else { return }
        obsoleteFiles.append(name)
    }

    func encode(_ value: AttributeValue, _ attribute: AttributeDescription) throws -> DatabaseValue {
        if attribute.allowsExternalStorage, case .binary(let data) = value {
            if data.count >= store.options.externalStorageThreshold {
                let name = try ExternalDataFiles.write(data, in: store.files, sync: store.options.syncExternalFiles)
                writtenFiles.append(name)
                return ExternalDataReference.external(fileName: name).encoded.databaseValue
            }
            return ExternalDataReference.inline(data).encoded.databaseValue
        }
        return try ColumnCoding.encode(value, attribute)
    }
}
