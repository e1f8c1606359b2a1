/// The model the harness ships: a small notes library with every kind of attribute and relationship.
///
/// Version 1 is what stores are generated with; version 2 adds an optional attribute and an entity, the two
/// changes lightweight migration infers, so tests can exercise both the 134100 error and the migration.
extension ManagedObjectModel {
    public static let library: ManagedObjectModel = libraryVersion(1)
    public static let libraryV2: ManagedObjectModel = libraryVersion(2)
    /// Version 1 plus an entity hierarchy (`Item` with sub-entities `Checklist` and `Sketch`), stored as Core
    /// Data stores inheritance: the drills of `store: {inheritance: true}` run on it.
    public static let libraryWithInheritance: ManagedObjectModel = libraryVersion(1, inheritance: true)

    /// Version 1 with `Note.views` changed from Integer 64 to String (`app_model: library-type-change`): a change
    /// no mapping can be inferred for, so opening a version 1 store with it fails with 134140 even with both
    /// lightweight-migration options on.
    public static let libraryTypeChange: ManagedObjectModel = {
        var model = libraryVersion(1)
        model.versionIdentifier = "Library v1 with Note.views as String"
        let note = model.entities.firstIndex { $0.name == "Note" }!
        let views = model.entities[note].attributes.firstIndex { $0.name == "views" }!
        model.entities[note].attributes[views].type = .string
        return model
    }()

    /// The model a scenario's `app_model` names (`library`, `library-v2`, `library-type-change`); `library` with
    /// `inheritance` is the library model with its `Item` hierarchy.
    public static func named(_ name: String, inheritance: Bool = false) -> ManagedObjectModel {
        switch name {
        case "library-v2": libraryV2
        case "library-type-change": libraryTypeChange
        default: inheritance ? libraryWithInheritance : library
        }
    }

    /// Builds version 1 or 2 of the library model, with or without the `Item` hierarchy.
    public static func libraryVersion(_ version: Int, inheritance: Bool = false) -> ManagedObjectModel {
        let id = AttributeDescription("lifeboatID", .uuid, optional: false)
        var noteAttributes = [
            id,
            AttributeDescription("title", .string),
            AttributeDescription("body", .string),
            AttributeDescription("created", .date),
            AttributeDescription("rating", .double),
            AttributeDescription("views", .integer64),
            AttributeDescription("attachment", .binary, externalStorage: true),
        ]
        var entities: [EntityDescription] = [
            EntityDescription("Folder",
                attributes: [id, AttributeDescription("name", .string), AttributeDescription("created", .date)],
                relationships: [RelationshipDescription("notes", to: "Note", inverse: "folder", toMany: true)]),
            EntityDescription("Tag",
                attributes: [id, AttributeDescription("name", .string)],
                relationships: [RelationshipDescription("notes", to: "Note", inverse: "tags", toMany: true)]),
        ]
        if version >= 2 {
            noteAttributes.append(AttributeDescription("pinned", .bool))
            entities.append(EntityDescription("Reminder",
                attributes: [id, AttributeDescription("due", .date), AttributeDescription("text", .string)]))
        }
        entities.append(EntityDescription("Note",
            attributes: noteAttributes,
            relationships: [
                RelationshipDescription("folder", to: "Folder", inverse: "notes", toMany: false),
                RelationshipDescription("tags", to: "Tag", inverse: "notes", toMany: true),
            ]))
        if inheritance { entities += itemHierarchy(identity: id) }
        return ManagedObjectModel(versionIdentifier: "Library v\(version)" + (inheritance ? " with inheritance" : ""),
                                  entities: entities)
    }
}
