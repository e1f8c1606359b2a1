import Foundation
import StoreModel
import Workload

/// The objects of a store as the oracle compares them: identity -> state hash, per entity, read through the
/// store layer (read-only, so checking never changes a backup).
public struct StoreState: Sendable {
    public var notes: [UUID: String] = [:]
    public var others: [UUID: String] = [:]
    /// Identities stored more than once (the checker reports them as duplicates).
    public var repeated: Set<UUID> = []
    /// Objects whose external data file is missing. `blobs-carried` reports them; the oracle compares them by
    /// presence only, so one forgotten blob is not also counted as a lost or torn transaction.
    public var missingBlobs: Set<UUID> = []
    public var storeUUID: String = ""
    public var versionHashes: [String: Data] = [:]

    public init() {}

    /// One hash over every object's identity and state: equal digests mean equal stores, for replay checks.
    public var digest: String {
        var text = ""
        for (id, hash) in notes.merging(others, uniquingKeysWith: { first, _ in first }).sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            text += "\(id.uuidString)=\(hash);"
        }
        return ObjectHash.of(ManagedObject(entity: "StoreState", id: UUID(uuidString: "00000000-0000-0000-0000-000000000000")!, attributes: ["all": .string(text)]))
    }

    /// What stands in for a missing external data file while reading (followed by the file's name).
    static let placeholder = Data("missing external file ".utf8)

    /// True when `hash` is what the store shows for `id`; an object whose blob is missing only has to be there.
    public func shows(_ hash: String?, for id: UUID) -> Bool {
        let stored = notes[id] ?? others[id]
        if missingBlobs.contains(id) { return (hash == nil) == (stored == nil) }
        return hash == stored
    }

    /// Lets SQLite recover a store as the next read-write open would (rolling back a hot journal, which a
    /// read-only reader cannot do). Changes the files: only for stores whose recovery is the point.
    public static func recover(_ url: URL) throws {
        let queue = try PlainConnection.open(url)
        defer { try? queue.close() }
        _ = try queue.inDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
    }

    public static func read(_ url: URL, model: ManagedObjectModel = .library) throws -> StoreState {
        if try StoreKind.of(url) == .layout { return try readLayout(url) }
        let model = ManagedObjectModel.appModel(for: url, fallback: model)
        var options = StoreOptions()
        options.readOnly = true
        let store = try PersistentStore(at: url, model: model, options: options)
        defer { try? store.close() }
        return try read(store, model: model, holding: {})
    }

    /// Reads an open store in one read transaction and calls `hold` before that transaction ends: a reader that
    /// keeps its snapshot a while, as an app's UI fetch does (a WAL checkpoint cannot pass its read mark).
    public static func read(_ store: PersistentStore, model: ManagedObjectModel = .library, holding hold: () -> Void) throws -> StoreState {
        // The objects writers change: notes, and the objects of an entity hierarchy where the model has one.
        let written = Set(["Note"] + model.hierarchyEntities)
        var state = StoreState()
        state.storeUUID = store.metadata.storeUUID
        state.versionHashes = store.metadata.versionHashes
        try store.read { db in
            for entity in model.entities {
                try store.forEachObject(entity.name, db, placeholderForMissingData: placeholder) { object in
                    if object.attributes.values.contains(where: { $0.binaryData?.starts(with: placeholder) == true }) {
                        state.missingBlobs.insert(object.id)
                    }
                    let hash = StoreState.hash(object)
                    if written.contains(entity.name) {
                        if state.notes.updateValue(hash, forKey: object.id) != nil { state.repeated.insert(object.id) }
                    } else if state.others.updateValue(hash, forKey: object.id) != nil {
                        state.repeated.insert(object.id)
                    }
                }
            }
            hold()
        }
        return state
    }

    /// Notes are hashed whole; other objects by their attributes only, since writers link notes to them (which
    /// changes their inverse relationships) but never change them.
    public static func hash(_ object: ManagedObject) -> String {
        object.entity == "Note" ? ObjectHash.of(object) : ObjectHash.of(object.withoutRelationships)
    }
}
