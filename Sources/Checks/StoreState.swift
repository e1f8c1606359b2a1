import Foundation
import GRDB
import StoreModel
import Workload

/// The objects of a store as the oracle compares them: identity -> state hash, per entity, read through the
/// store layer (read-only, so checking never changes a backup).
public struct StoreState: Sendable, Codable, Equatable {
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

    /// Reads a store as the next launch of the app would see it, without changing a byte of it: from a private
    /// copy (`StoreSnapshot`) that SQLite recovers first (rolling back a hot journal, replaying the `-wal`), so
    /// a check after a crash judges what the crash left and never creates a `-wal`, `-shm` or empty file beside
    /// the store. A missing store throws `missingStore`, an empty file says it is empty.
    /// External data files named in `treatingAsMissing` count as missing whatever they hold: the objects that
    /// name them are compared by presence only (`missingBlobs`).
    public static func read(_ url: URL, model: ManagedObjectModel = .library, treatingAsMissing: Set<String> = []) throws -> StoreState {
        try onRecoveredCopy(of: url) { copy in
            if try StoreKind.of(copy) == .layout { return try readLayout(copy) }
            let model = ManagedObjectModel.appModel(for: copy, fallback: model)
            var options = StoreOptions()
            options.readOnly = true
            let store = try PersistentStore(at: copy, model: model, options: options)
            defer { try? store.close() }
            return try read(store, model: model, treatingAsMissing: treatingAsMissing, holding: {})
        }
    }

    /// Runs `body` on a recovered private copy of the store at `url` (its support folder linked in place), and
    /// names the store, not the copy, in any error: the one way every check opens a store it judges.
    public static func onRecoveredCopy<T>(of url: URL, _ body: (URL) throws -> T) throws -> T {
        let snapshot = try StoreSnapshot(of: url, linkingSupport: true)
        let copy = snapshot.copy.database
        do {
            return try withExtendedLifetime(snapshot) {
                try recover(copy)
                return try body(copy)
            }
        } catch let error as StoreError {
            throw error.naming(url.path, for: copy.path)
        }
    }

    /// Lets SQLite recover a private copy as the next read-write open would (a read-only reader cannot roll back
    /// a hot journal). Only ever called on a copy.
    static func recover(_ copy: URL) throws {
        let queue: DatabaseQueue
        do {
            queue = try PlainConnection.open(copy)
            _ = try queue.inDatabase { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master") }
        } catch let error as DatabaseError {
            throw StoreError.unopenable(copy.path, reason: error.message ?? "\(error)")
        }
        try queue.close()
    }

    /// Reads an open store in one read transaction and calls `hold` before that transaction ends: a reader that
    /// keeps its snapshot a while, as an app's UI fetch does (a WAL checkpoint cannot pass its read mark).
    public static func read(_ store: PersistentStore, model: ManagedObjectModel = .library, treatingAsMissing: Set<String> = [],
                            holding hold: () -> Void) throws -> StoreState {
        // The objects writers change: notes, and the objects of an entity hierarchy where the model has one.
        let written = Set(["Note"] + model.hierarchyEntities)
        var state = StoreState()
        state.storeUUID = store.metadata.storeUUID
        state.versionHashes = store.metadata.versionHashes
        try store.read { db in
            for entity in model.entities {
                try store.forEachObject(entity.name, db, placeholderForMissingData: placeholder, treatingAsMissing: treatingAsMissing) { object in
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
