import Foundation
import Scenario
import StoreModel

/// The child that syncs a store with the run's zone for `sync: live` and `device: NAME`: one `MirrorRun` written
/// as `<name>.json` in the run's scratch and run by `lifeboat mirror-step --config`, as a copy step's child gets its
/// `StrategyRun`; the child reads it through `ChildConfig`.
enum MirrorChild {
    /// Writes the sync's configuration and returns the child's arguments.
    static func arguments(_ name: String, store: URL, zone: CloudKitZone, seed: UInt64, _ context: EventContext) throws -> [String] {
        let cloud = context.scenario.cloud ?? Scenario.CloudSpec()
        let sync = MirrorRun(store: store.path, cloud: zone.directory.path, seed: seed, setupDeadline: cloud.setupDeadline)
        let config = context.scratch.appendingPathComponent("\(name).json")
        try JSONEncoder().encode(sync).write(to: config)
        return ["mirror-step", "--config", config.path]
    }
}
