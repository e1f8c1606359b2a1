import Crypto
import Foundation

/// External data mirrored as `CKAsset`s (docs/cloudkit.md, "Assets"): a binary value Core Data keeps in
/// `_EXTERNAL_DATA` (an attribute that allows external storage, at or over the store's threshold) does not travel
/// inside the record; the mirror writes it to a file in its staging folder, `ckAssetFiles/` beside the store, and
/// hands that file to CloudKit as the record's asset. CloudKit keeps the asset apart from the record ("CloudKit
/// stores an asset's data separately from a record that references it", Apple's `CKAsset` documentation), and a
/// device that fetches the record gets the asset's data in a staging area first, from which the import writes it
/// into its own store, where it becomes an external data file again.
///
/// What is public and what is not: the folder's name and place (`ckAssetFiles` in the store's directory) come
/// from seed 002's cleanup code and from a SwiftData app's published reset steps (`rm -rf ckAssetFiles/` beside
/// `default.store`); the names of the files inside it, when the mirror removes them, and the asset tables of the
/// store are not public. The model names staged files by their content's SHA-256, removes an upload's staged file
/// once the zone holds the asset, and keeps downloaded ones (a cache: "The system regularly deletes files in the
/// staging area"), so losing the folder loses nothing by itself; losing `_EXTERNAL_DATA` does.
public enum CloudKitAssets {
    /// One asset as a record refers to it: the content's SHA-256 (hex) and its size.
    public struct Asset: Sendable, Codable, Equatable, Hashable {
        public var hash: String
        public var size: Int

        public init(hash: String, size: Int) {
            self.hash = hash
            self.size = size
        }

        public init(of data: Data) { self.init(hash: CloudKitAssets.hash(data), size: data.count) }

        /// The first twelve characters of the hash, for messages.
        public var short: String { String(hash.prefix(12)) }
    }

    /// The mirror's asset staging folder of a store: `ckAssetFiles` in the store's directory.
    public static func stagingFolder(_ files: StoreFiles) -> URL {
        files.database.deletingLastPathComponent().appendingPathComponent("ckAssetFiles", isDirectory: true)
    }

    public static func hash(_ data: Data) -> String {
        Hex.string(SHA256.hash(data: data))
    }

    /// Splits an object into what its record carries and its assets: every value of an attribute that allows
    /// external storage whose size reaches `threshold` (what the store keeps in `_EXTERNAL_DATA`) leaves the
    /// object and becomes an asset.
    public static func split(_ object: ManagedObject, model: ManagedObjectModel, threshold: Int) -> (object: ManagedObject, assets: [String: (Asset, Data)]) {
        guard let entity = model.entity(named: object.entity) else { return (object, [:]) }
        var rest = object
        var assets: [String: (Asset, Data)] = [:]
        for attribute in entity.attributes where attribute.allowsExternalStorage {
            guard case .binary(let data)? = object.attributes[attribute.name], data.count >= threshold else { continue }
            assets[attribute.name] = (Asset(of: data), data)
            rest.attributes[attribute.name] = nil
        }
        return (rest, assets)
    }

    /// Writes an asset's data to the staging folder (the file CloudKit uploads from, or the one it downloaded to)
    /// and returns its URL.
    @discardableResult
    public static func stage(_ data: Data, as asset: Asset, in folder: URL) throws -> URL {
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let file = folder.appendingPathComponent(asset.hash)
        if !FileManager.default.fileExists(atPath: file.path) { try data.write(to: file, options: .atomic) }
        return file
    }
}
