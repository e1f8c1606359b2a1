import Foundation
import StoreModel

/// Seed 002's move of an `NSPersistentCloudKitContainer` store into an App Group container, step by step
/// (docs/cloudkit.md, docs/pitfalls.md: [slazinski]). Each step is a function, so a drill or a test can stop
/// between them; `RelocateAppGroup` runs them in the seed's order.
public enum AppGroupMove {
    /// Loads the old store. With `cloudKit` on, loading waits for the mirror's setup, as the seed saw: signed
    /// out of iCloud, that setup never completes and the load (with everything queued behind it) blocks until
    /// the deadline, when this throws with the mirror's retry log.
    public static func load(_ url: URL, coordinator: PersistentStoreCoordinator, cloudKit: Bool, options: StrategyOptions) throws -> PersistentStore {
        let store = try coordinator.addStore(at: url, options: options.storeOptions)
        if cloudKit {
            do {
                try mirror(options)?.setUp(label: "load \(url.lastPathComponent) with CloudKit on")
                try CloudKitMirror.prepare(store)
            } catch {
                try? coordinator.remove(store)
                throw error
            }
        }
        return store
    }

    /// `replacePersistentStore(at: new, withPersistentStoreFrom: old)`: the file moves whole (same store UUID,
    /// `ANSCK*` tables and history), so the mirror goes on where it was.
    public static func replace(_ old: URL, into new: URL, coordinator: PersistentStoreCoordinator, options: StrategyOptions) throws -> ReplaceReport {
        try coordinator.replace(at: new, from: old, options: options.replaceOptions)
    }

    /// `destroyPersistentStore(at: old)`: unloads and truncates (it never unlinks).
    public static func destroy(_ old: URL, coordinator: PersistentStoreCoordinator) throws {
        try coordinator.destroy(at: old)
    }

    /// The seed's cleanup: removes the old `.sqlite`, then `<container name>.sqlite-shm`, `-wal` and
    /// `ckAssetFiles` beside it, ignoring errors (`OldStoreCleanup`). Returns the files of the old store left behind.
    @discardableResult
    public static func removeFiles(_ old: URL, containerName: String) -> [String] {
        OldStoreCleanup.removeFiles(old, containerName: containerName)
    }

    /// Loads the moved store again with CloudKit on. The mirror's setup and first sync run in the background in
    /// Core Data; here they are the drill's `sync` step, so this only loads the store and adds what loading with
    /// CloudKit options adds.
    public static func reload(_ new: URL, coordinator: PersistentStoreCoordinator, options: StrategyOptions) throws {
        let store = try coordinator.addStore(at: new, options: options.storeOptions)
        defer { try? coordinator.remove(store) }
        try CloudKitMirror.prepare(store)
    }

    /// With the CloudKit options kept on for the move (`StrategyOptions.cloudKitDuringMove`): loading the old
    /// store waits on the mirror's setup first, as in `load`; signed out of iCloud it never completes and this
    /// throws at the deadline with the mirror's retry log (seed 002: "My app was freezing during migration if
    /// iCloud was turned off").
    public static func waitForMirrorIfOn(_ old: URL, options: StrategyOptions) throws {
        guard options.cloudKitDuringMove else { return }
        try mirror(options)?.setUp(label: "load \(old.lastPathComponent) with CloudKit on")
    }

    static func mirror(_ options: StrategyOptions) -> CloudKitMirror? {
        options.cloud.map { CloudKitMirror(zone: CloudKitZone(URL(fileURLWithPath: $0)), setupDeadline: options.mirrorSetupDeadline) }
    }
}

/// `relocate-app-group` (seed 002's final code): load the old store with CloudKit off, replace into the App
/// Group path, destroy the old store, remove its files as the seed does, reload with CloudKit on.
/// `relocate-app-group-cloudkit-on` is the same move with the CloudKit options left on while it runs: signed
/// out of iCloud, it blocks on the mirror's setup (the seed's freeze).
public struct RelocateAppGroup: RelocationStrategy {
    public var cloudKitDuringMove: Bool
    public init(cloudKitDuringMove: Bool = false) { self.cloudKitDuringMove = cloudKitDuringMove }
    public var name: String { cloudKitDuringMove ? "relocate-app-group-cloudkit-on" : "relocate-app-group" }
    public var summary: String {
        cloudKitDuringMove
            ? "move a CloudKit store into an App Group with CloudKit left on: the load waits on the mirror's setup (blocks when signed out)"
            : "move a CloudKit store into an App Group: CloudKit off, replace, destroy, remove <container>.sqlite-wal/-shm, reload with CloudKit"
    }

    public func relocate(from old: URL, to new: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome {
        try timed {
            let coordinator = PersistentStoreCoordinator(model: model)
            var steps: [String] = []
            let cloudKitOn = cloudKitDuringMove || options.cloudKitDuringMove
            _ = try AppGroupMove.load(old, coordinator: coordinator, cloudKit: cloudKitOn, options: options)
            steps.append(cloudKitOn ? "load (CloudKit on)" : "load (CloudKit off)")
            let report = try AppGroupMove.replace(old, into: new, coordinator: coordinator, options: options)
            steps.append("replace")
            try AppGroupMove.destroy(old, coordinator: coordinator)
            steps.append("destroy")
            let leftovers = AppGroupMove.removeFiles(old, containerName: options.cloudKitContainerName)
            steps.append("remove files")
            try AppGroupMove.reload(new, coordinator: coordinator, options: options)
            steps.append("reload (CloudKit on)")
            var outcome = StrategyOutcome(strategy: name, store: new)
            outcome.details["steps"] = steps.joined(separator: ", ")
            outcome.details["usedClone"] = String(report.usedClone)
            outcome.details["leftovers"] = leftovers.joined(separator: " ")
            return outcome
        }
    }
}
