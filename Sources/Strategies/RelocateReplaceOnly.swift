import Foundation
import StoreModel

/// `relocate-replace-only`: `replacePersistentStore(at: new, withPersistentStoreFrom: old)` and nothing else. The
/// old store stays where it was, whole, for a scenario's `cleanup: old-store` step to destroy and remove (seed
/// 002's cleanup as a step of its own, with or without the seed's condition), so what another process holding the
/// old store does between the move and the cleanup can be drilled.
public struct RelocateReplaceOnly: RelocationStrategy {
    public init() {}
    public var name: String { "relocate-replace-only" }
    public var summary: String { "replacePersistentStore at the new location from the old; the old store stays (for a `cleanup: old-store` step)" }

    public func relocate(from old: URL, to new: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            try AppGroupMove.waitForMirrorIfOn(old, options: options)
            let coordinator = PersistentStoreCoordinator(model: model)
            let report = try coordinator.replace(at: new, from: old, options: options.replaceOptions)
            var outcome = StrategyOutcome(strategy: name, store: new)
            outcome.details["usedClone"] = String(report.usedClone)
            return outcome
        }
    }
}
