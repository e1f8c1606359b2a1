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

    /// The model this harness stored, or nil for a cache written by Core Data itself (or a damaged one: a cache
    /// that lists an entity twice is no model).
    public static func decode(_ data: Data) -> ManagedObjectModel? {
        guard isLifeboatCache(data),
              let model = try? JSONDecoder().decode(ManagedObjectModel.self, from: data.dropFirst(magic.count)),
              Set(model.entities.map(\.name)).count == model.entities.count,
              model.entities.allSatisfy({ Set($0.attributes.map(\.name)).count == $0.attributes.count })
        else { return nil }
        return model
    }

    /// Whether the cache was written by this harness.
    public static func isLifeboatCache(_ data: Data) -> Bool { data.starts(with: magic) }
}
