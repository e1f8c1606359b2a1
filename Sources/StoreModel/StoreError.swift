import Foundation

/// Errors of the store layer, each naming the file and what a person can do about it.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Core Data's NSPersistentStoreIncompatibleVersionHashError: the store was written by another model version.
    case incompatibleModel(store: String, differences: [String])
    /// NSMigrationError 134110: an inferred migration cannot be done in place (e.g. a new required attribute
    /// with no default over existing rows: "Validation error missing attribute values on mandatory destination
    /// attribute").
    case cannotMigrateInPlace(store: String, reason: String)
    /// NSMigrationMissingSourceModelError 134130: the model the store was written with cannot be found.
    case missingSourceModel(store: String)
    /// NSMigrationMissingMappingModelError 134140: no mapping model can be inferred (e.g. a changed type).
    case noInferredMapping(store: String, differences: [String])
    /// The file is not an SQLite database with Core Data's bookkeeping tables.
    case notACoreDataStore(String, reason: String)
    /// The path holds nothing SQLite can open as a database (not a regular file, unreadable, not a database),
    /// with SQLite's or the system's own reason.
    case unopenable(String, reason: String)
    case badMetadata(String)
    /// A restore's backup cannot be read: found before the live store is touched.
    case unreadableBackup(String, reason: String)
    case missingStore(String)
    case storeNotLoaded(String)
    case alreadyLoaded(String)
    /// Creating or writing an external data file's `<name>.interim` failed (errno): Core Data raises
    /// NSInternalInconsistencyException here and the app aborts, so a writer ends its process on it.
    case interimFileFailed(String, errno: Int32)
    /// A save through a coordinator that holds no store. Core Data raises NSInternalInconsistencyException with
    /// `noPersistentStoresReason` (docs/fidelity.md, "Saves after migrate on the app's coordinator").
    case noPersistentStores
    case unknownObject(entity: String, id: UUID)
    case invalidObject(String)
    case sqlite(String)
    case io(String)

    /// Core Data's error code for this case, where Core Data has one.
    public var code: Int {
        switch self {
        case .incompatibleModel: 134100
        case .cannotMigrateInPlace: 134110
        case .missingSourceModel: 134130
        case .noInferredMapping: 134140
        case .notACoreDataStore, .unopenable: 134000
        case .badMetadata: 134010
        case .missingStore: 4
        default: 134060
        }
    }

    /// The reason of Core Data's NSInternalInconsistencyException for a save through a coordinator with no store,
    /// as crash reports quote it ("(unknown)" where no load error was recorded).
    public static let noPersistentStoresReason = "This NSPersistentStoreCoordinator has no persistent stores (unknown). It cannot perform a save operation."

    public var description: String {
        switch self {
        case .incompatibleModel(let store, let differences):
            "error 134100: the model used to open \(store) is not the one it was written with (\(differences.joined(separator: "; ")))"
        case .cannotMigrateInPlace(let store, let reason): "error 134110: Cannot migrate store in-place: \(reason) (\(store))"
        case .missingSourceModel(let store): "error 134130: Can't find model for source store \(store)"
        case .noInferredMapping(let store, let differences):
            "error 134140: Can't find or automatically infer mapping model for \(store) (\(differences.joined(separator: "; ")))"
        case .notACoreDataStore(let path, let reason): "\(path) is not a Core Data SQLite store: \(reason)"
        case .unreadableBackup(let path, let reason): "the backup \(path) cannot be read, so the live store was not touched: \(reason)"
        case .unopenable(let path, let reason): "cannot open \(path) as an SQLite database: \(reason)"
        case .badMetadata(let reason): "store metadata is unreadable: \(reason)"
        case .missingStore(let path): "no store at \(path)"
        case .storeNotLoaded(let path): "store \(path) is not loaded in this coordinator"
        case .alreadyLoaded(let path): "store \(path) is already loaded in this coordinator"
        case .interimFileFailed(let path, let code):
            "Can't create externalDataReference interim file \(path): \(code) (\(String(cString: strerror(code))))"
        case .noPersistentStores: Self.noPersistentStoresReason
        case .unknownObject(let entity, let id): "no \(entity) with identity \(id)"
        case .invalidObject(let reason): "invalid object: \(reason)"
        case .sqlite(let message): "SQLite: \(message)"
        case .io(let message): message
        }
    }
}
