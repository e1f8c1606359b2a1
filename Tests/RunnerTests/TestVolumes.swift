import Foundation
import Runner
import Scenario

/// The volumes the drill tests run on: the same choice the CLI makes.
enum TestVolumes {
    @Sendable static func make(_ scenario: Scenario, _ directory: URL) throws -> any StoreVolume {
        try PlainVolume(directory: directory)
    }
}
