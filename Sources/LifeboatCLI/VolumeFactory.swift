import Foundation
import Runner
import Scenario

/// Chooses the store volume for a scenario: a plain directory, or FaultFS where the scenario has faults.
enum VolumeFactory {
    @Sendable static func make(_ scenario: Scenario, _ directory: URL) throws -> any StoreVolume {
        if scenario.faults.needsFaultFS {
            throw RunError.environment("scenario \(scenario.name) needs FaultFS, which this build cannot mount yet")
        }
        return try PlainVolume(directory: directory)
    }
}
