import Crypto
import Foundation

/// The store metadata Core Data keeps in `Z_METADATA`: the store UUID in the `Z_UUID` column, the rest as a
/// binary property list in `Z_PLIST`. As in real stores, the plist holds no `NSStoreUUID` (the metadata dictionary
/// an app reads merges it in from `Z_UUID`); stores written by older Lifeboat versions kept it in the plist, and
/// that copy is read only when `Z_UUID` is empty.
public struct StoreMetadata: Sendable, Equatable {
    /// `Z_METADATA.Z_UUID`.
    public var storeUUID: String
    public var storeType: String
    public var versionHashes: [String: Data]
    public var versionHashesVersion: Int
    public var versionIdentifiers: [String]
    public var frameworkVersion: Int
    public var autoVacuumLevel: String
    /// Keys this model does not interpret (an app's own metadata, keys of newer frameworks), kept with their
    /// plist types so a real Core Data store round-trips and migrate carries them.
    public var otherKeys: [String: PlistValue]

    public init(storeUUID: String = UUID().uuidString, model: ManagedObjectModel) {
        self.storeUUID = storeUUID
        self.storeType = "SQLite"
        self.versionHashes = model.versionHashes
        self.versionHashesVersion = 3
        self.versionIdentifiers = [model.versionIdentifier]
        self.frameworkVersion = 1414
        self.autoVacuumLevel = "2"
        self.otherKeys = [:]
    }

    /// Encodes as a binary plist (bplist00), as Core Data writes it.
    public func plistData() throws -> Data {
        var dictionary: [String: Any] = [
            "NSStoreType": storeType,
            "NSStoreModelVersionHashes": versionHashes,
            "NSStoreModelVersionHashesVersion": versionHashesVersion,
            "NSStoreModelVersionIdentifiers": versionIdentifiers,
            "NSPersistenceFrameworkVersion": frameworkVersion,
            "_NSAutoVacuumLevel": autoVacuumLevel,
            "NSStoreModelVersionHashesDigest": Self.versionHashesDigest(versionHashes),
        ]
        for (key, value) in otherKeys where dictionary[key] == nil { dictionary[key] = value.object }
        return try PropertyListSerialization.data(fromPropertyList: dictionary, format: .binary, options: 0)
    }

    /// `NSStoreModelVersionHashesDigest`, as Core Data (framework 1048 and later) writes it: the base64 of the
    /// SHA-512 of every entity name (UTF-8) followed by its version hash, in name order. Checked against the
    /// digests of the real stores in Tests/Fixtures/RealStores.
    public static func versionHashesDigest(_ hashes: [String: Data]) -> String {
        var hasher = SHA512()
        for name in hashes.keys.sorted(by: { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }) {
            hasher.update(data: Data(name.utf8))
            hasher.update(data: hashes[name]!)
        }
        return Data(hasher.finalize()).base64EncodedString()
    }

    /// Decodes a plist written by Core Data or by this model; missing keys are errors only where Core Data needs them.
    public init(plistData data: Data, uuid: String? = nil) throws {
        let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        guard let dictionary = object as? [String: Any] else {
            throw StoreError.badMetadata("Z_PLIST is not a dictionary")
        }
        guard let uuid = uuid.flatMap({ $0.isEmpty ? nil : $0 }) ?? dictionary["NSStoreUUID"] as? String else {
            throw StoreError.badMetadata("Z_UUID is empty and the plist has no NSStoreUUID")
        }
        guard let type = dictionary["NSStoreType"] as? String else { throw StoreError.badMetadata("NSStoreType missing") }
        guard let hashes = dictionary["NSStoreModelVersionHashes"] as? [String: Any] else {
            throw StoreError.badMetadata("NSStoreModelVersionHashes missing")
        }
        storeUUID = uuid
        storeType = type
        var versionHashes: [String: Data] = [:]
        for (entity, value) in hashes {
            guard let hash = value as? Data else { throw StoreError.badMetadata("hash of \(entity) is not data") }
            versionHashes[entity] = hash
        }
        self.versionHashes = versionHashes
        versionHashesVersion = (dictionary["NSStoreModelVersionHashesVersion"] as? NSNumber)?.intValue ?? 3
        versionIdentifiers = (dictionary["NSStoreModelVersionIdentifiers"] as? [Any])?.compactMap { $0 as? String } ?? []
        frameworkVersion = (dictionary["NSPersistenceFrameworkVersion"] as? NSNumber)?.intValue ?? 0
        autoVacuumLevel = (dictionary["_NSAutoVacuumLevel"] as? String) ?? ""
        let known: Set = ["NSStoreUUID", "NSStoreType", "NSStoreModelVersionHashes", "NSStoreModelVersionHashesVersion",
                          "NSStoreModelVersionIdentifiers", "NSPersistenceFrameworkVersion", "_NSAutoVacuumLevel",
                          "NSStoreModelVersionHashesDigest"]
        var others: [String: PlistValue] = [:]
        for (key, value) in dictionary where !known.contains(key) {
            guard let typed = PlistValue(value) else { throw StoreError.badMetadata("metadata key \(key) holds a value no plist can") }
            others[key] = typed
        }
        otherKeys = others
    }
}
