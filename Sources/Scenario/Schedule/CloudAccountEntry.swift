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

/// `device: NAME` (with `objects: N`, default 10): a second device on the same iCloud account. Its first entry
/// makes the device's own store (N objects of its own, drawn from the seed and the name) and syncs it with the
/// run's zone; every later entry syncs it again. At the end of the run each device's store is judged as the
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
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: name)
        if let objects = try r.int("objects", range: 1...100_000) { step.options["objects"] = String(objects) }
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] {
        ScheduleTriggers.render(step) + (step.options["objects"].map { ["    objects: \($0)"] } ?? [])
    }

    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        scenario.store.cloudkit ? nil
            : (key, "schedule[\(index)]: a second device shares the store's iCloud zone: it needs `store: {cloudkit: true}`")
    }
}
