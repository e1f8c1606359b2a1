import Foundation
import Yams

/// `account: sign-in|sign-out`: the iCloud account of the run's zone signs in or out between steps (the zone
/// keeps its records). Signed out, `sync` steps sync nothing, as Core Data's mirror retries in the background
/// without an error to the app (docs/cloudkit.md).
struct CloudAccountEntry: ScheduleEntryKind {
    var key: String { "account" }
    var argument: String { "sign-in|sign-out" }
    var keys: [String] { ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let what = try r.choice(key, ["sign-in", "sign-out"]) ?? ""
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: what)
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] { ScheduleTriggers.render(step) }
}

/// `device: NAME` (with `objects: N`, default 10): a second device on the same iCloud account. Its first entry to
/// run makes the device's own store (N objects of its own, drawn from the seed and the name) and syncs it with the
/// run's zone; every later entry syncs it again. A device has one store, so `objects:` belongs to the device: it
/// may be written on any one of its entries (or on several with the same value), never two different values. At the end of the run each device's store is judged as the
/// live one is (`cloud-consistent` after its last sync, `no-duplicates` after each), so what a move or a
/// restore on the first device does to the others shows (docs/cloudkit.md).
struct CloudDeviceEntry: ScheduleEntryKind {
    var key: String { "device" }
    var argument: String { "NAME" }
    var keys: [String] { ScheduleTriggers.keys + ["objects"] }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let name = try r.string(key) ?? ""
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw r.error(r.node(key) ?? node, "schedule[\(index)].device must be a plain name (letters, digits, - and _), not '\(name)'")
        }
        var device = Scenario.SecondDevice()
        device.objects = try r.int("objects", range: 1...100_000)
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: name, details: .device(device))
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] {
        ScheduleTriggers.render(step) + (step.secondDevice?.objects.map { ["    objects: \($0)"] } ?? [])
    }

    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard scenario.store.cloudkit else {
            return (key, "schedule[\(index)]: a second device shares the store's iCloud zone: it needs `store: {cloudkit: true}`")
        }
        guard let objects = step.secondDevice?.objects else { return nil }
        for (other, entry) in scenario.schedule.enumerated().prefix(index) where entry.action == step.action && entry.strategy == step.strategy {
            if let earlier = entry.secondDevice?.objects, earlier != objects {
                return ("objects", "schedule[\(index)]: device \(step.strategy) has one store, made with the objects of its first sync; schedule[\(other)] already gives it objects: \(earlier), not \(objects)")
            }
        }
        return nil
    }

}

extension Scenario {
    /// The objects of second device `device`'s own store: the `objects:` written on any of its entries
    /// (`SecondDevice.defaultObjects` when none says; `CloudDeviceEntry` refuses two different values).
    public func deviceObjects(_ device: String) -> Int {
        schedule.lazy.filter { $0.action.rawValue == "device" && $0.strategy == device }.compactMap { $0.secondDevice?.objects }.first
            ?? SecondDevice.defaultObjects
    }

    /// A `device:` entry's keys.
    public struct SecondDevice: Sendable, Equatable, Codable {
        /// The objects of the device's own store when none of its entries says.
        public static let defaultObjects = 10
        /// `objects:` as this entry writes it (nil when it does not: another entry of the device may).
        public var objects: Int?
        public init() {}
    }
}

extension Scenario.Step {
    /// The keys of a `device:` entry, nil for any other kind.
    public var secondDevice: Scenario.SecondDevice? {
        if case .device(let device) = details { device } else { nil }
    }
}
