import Foundation
import Strategies
import Yams

/// `relocate: STRATEGY` with `to: PATH`: moves the live store to PATH (relative to the store's volume) with a
/// relocation strategy of the catalog; later entries and checks use the moved store (docs/cloudkit.md).
struct RelocateEntry: ScheduleEntryKind {
    var key: String { "relocate" }
    var argument: String { "STRATEGY" }
    var keys: [String] { ScheduleTriggers.keys + ["to"] }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let name = try r.string(key) ?? ""
        let known = StrategyCatalog.relocations.map(\.name)
        guard known.contains(name) else {
            throw r.error(r.node(key) ?? node, "unknown relocation strategy '\(name)'; known: \(known.joined(separator: ", "))")
        }
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: name)
        let to = try r.string("to") ?? "AppGroup/Library.sqlite"
        guard !to.isEmpty, !to.hasPrefix("/"), !to.split(separator: "/").contains(".."), !to.hasSuffix("/") else {
            throw r.error(r.node("to") ?? node, "schedule[\(index)].to must be a relative path inside the store's volume (no .., not absolute), not '\(to)'")
        }
        step.options["to"] = to
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] {
        ScheduleTriggers.render(step) + (step.options["to"].map { ["    to: \(ScenarioYAML.quote($0))"] } ?? [])
    }
}

/// `sync: live`: one run of the CloudKit mirror on the live store (wherever a `relocate` put it) against the
/// run's zone (docs/cloudkit.md).
struct SyncEntry: ScheduleEntryKind {
    var key: String { "sync" }
    var argument: String { "live" }
    var keys: [String] { ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let target = try r.string(key) ?? ""
        guard target == "live" else {
            throw r.error(r.node(key) ?? node, "schedule[\(index)]: `sync:` takes `live` (the live store, wherever it was moved), not '\(target)'")
        }
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: target)
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] { ScheduleTriggers.render(step) }
}
