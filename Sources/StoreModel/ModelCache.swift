import Foundation

/// The content of `Z_MODELCACHE`: Core Data keeps a compiled model there; this harness keeps its model as JSON
/// behind a magic prefix, so `check` can find relationship columns in its own stores and still read real ones.
public enum ModelCache {
    static let magic = Data("LIFEBOAT-MODEL-1\n".utf8)

    public static func encode(_ model: ManagedObjectModel) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return magic + (try encoder.encode(model))
    }

    /// The model this harness stored, or nil for a cache written by Core Data itself.
    public static func decode(_ data: Data) -> ManagedObjectModel? {
        guard data.starts(with: magic) else { return nil }
        return try? JSONDecoder().decode(ManagedObjectModel.self, from: data.dropFirst(magic.count))
    }
}
