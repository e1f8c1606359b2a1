import Checks
import Foundation
import Scenario
import StoreModel

/// What the CloudKit steps of a run have made: the zone of the run's iCloud account, and each second device's
/// store (where the live store is: `LiveLocation`).
final class CloudRunState {
    private var zoneURL: URL?
    /// A second device's store, by device name, made on its first turn.
    var deviceStores: [String: URL] = [:]

    /// The zone of the run: `cloud/` in the run's scratch directory, outside the store's volume, made on first use.
    func zone(scratch: URL, scenario: Scenario, note: (String, TimelineEvent.Kind, String) -> Void) throws -> CloudKitZone {
        if let zoneURL { return CloudKitZone(zoneURL) }
        let url = scratch.appendingPathComponent("cloud")
        let account = CloudKitZone.Account(rawValue: scenario.cloud?.account ?? "available") ?? .available
        let zone = try CloudKitZone.create(at: url, account: account)
        zoneURL = url
        note("cloud", .note, "zone at \(url.path), account \(account.rawValue)")
        return zone
    }
}
