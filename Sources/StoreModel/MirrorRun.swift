import Foundation

/// One sync of a store with a zone (`CloudKitMirror`), as a run's `sync: live` and `device: NAME` entries ask a
/// `lifeboat mirror-step --config FILE` child for it: the store, the zone, the seed of the record names and the
/// setup's deadline, in one JSON file written by the engine and read by the child through this type (no argv built
/// by hand and parsed back). `lifeboat mirror`, the command a person types, builds the same value from its flags
/// and runs the same `perform`.
public struct MirrorRun: Sendable, Codable, Equatable {
    /// The store's `.sqlite` file.
    public var store: String
    /// The zone's directory (created when missing).
    public var cloud: String
    /// Seed of the record names this sync draws.
    public var seed: UInt64
    /// Seconds the mirror's setup retries while the account is unavailable.
    public var setupDeadline: Double

    public init(store: String, cloud: String, seed: UInt64, setupDeadline: Double) {
        self.store = store
        self.cloud = cloud
        self.seed = seed
        self.setupDeadline = setupDeadline
    }

    /// What keeps the sync from starting: the input is wrong, not the mirror (the callers say exit 2).
    public enum BadInput: Error, CustomStringConvertible, Equatable {
        case noStore(String)
        case setupDeadline(Double)
        case cannotOpen(String)
        public var description: String {
            switch self {
            case .noStore(let path): "\(path): no store there"
            case .setupDeadline(let seconds): "the setup deadline must be between 0.1 and 3600 seconds, not \(seconds)"
            case .cannotOpen(let reason): reason
            }
        }
    }

    /// Syncs once (export, then import) and returns the report; `BadInput` for a missing or unopenable store,
    /// `CloudKitMirror.MirrorError` when the mirror itself fails (its setup never completed).
    public func perform() throws -> CloudKitMirror.Report {
        guard (0.1...3600).contains(setupDeadline) else { throw BadInput.setupDeadline(setupDeadline) }
        let url = URL(fileURLWithPath: store)
        guard StoreFiles(url).exists else { throw BadInput.noStore(url.path) }
        let zoneURL = URL(fileURLWithPath: cloud)
        let zone = CloudKitZone(zoneURL)
        if !zone.exists { try CloudKitZone.create(at: zoneURL) }
        let coordinator = PersistentStoreCoordinator(model: .appModel(for: url, fallback: .library))
        let loaded: PersistentStore
        do { loaded = try coordinator.addStore(at: url) } catch { throw BadInput.cannotOpen("\(error)") }
        defer { try? coordinator.remove(loaded) }
        return try CloudKitMirror(zone: zone, seed: seed, setupDeadline: setupDeadline).sync(loaded, label: "mirror \(url.lastPathComponent)")
    }
}
