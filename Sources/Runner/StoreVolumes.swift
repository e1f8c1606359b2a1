import Foundation
import Scenario

/// Chooses the store volume for a scenario: FaultFS where it has fault rules or asks for the mount, else a
/// plain directory (where a crash is a process crash only). The op log of a FaultFS run sits beside the mount.
public enum StoreVolumes {
    @Sendable public static func make(_ scenario: Scenario, _ directory: URL) throws -> any StoreVolume {
        if scenario.faults.needsFaultFS {
            return try FaultFSVolume(directory: directory, seed: scenario.seed,
                                     log: directory.deletingLastPathComponent().appendingPathComponent("faultfs.oplog"),
                                     hostSync: scenario.faults.hostSync, fsyncFailure: scenario.faults.fsyncFailure)
        }
        return try PlainVolume(directory: directory)
    }
}
