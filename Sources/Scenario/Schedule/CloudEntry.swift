import Foundation
import Strategies
import Yams

/// `relocate: STRATEGY` with `to: PATH`: moves the live store to PATH (relative to the store's volume) with a
/// relocation strategy of the catalog; later entries and checks use the moved store (docs/cloudkit.md).
struct RelocateEntry: ScheduleEntryKind {
    var key: String { "relocate" }
    var argument: String { "STRATEGY" }
    var keys: [String] { ScheduleTriggers.keys + ["to", "cloudkit", "migrate_existing"] }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let name = try r.string(key) ?? ""
        let known = StrategyCatalog.relocations.map(\.name)
        guard known.contains(name) else {
            throw r.error(r.node(key) ?? node, "unknown relocation strategy '\(name)'; known: \(known.joined(separator: ", "))")
        }
        var relocation = Scenario.Relocation()
        if let to = try r.string("to") {
            guard !to.isEmpty, !to.hasPrefix("/"), !to.split(separator: "/").contains(".."), !to.hasSuffix("/") else {
                throw r.error(r.node("to") ?? node, "schedule[\(index)].to must be a relative path inside the store's volume (no .., not absolute), not '\(to)'")
            }
            relocation.to = to
        }
        // The options seed 002's code passes: CloudKit kept on while moving (its first attempt), and what a
        // migrate does to a store already at the new place.
        relocation.cloudKitDuringMove = try r.choice("cloudkit", ["on", "off"]) == "on"
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: name, details: .relocate(relocation))
        if let existing = try r.choice("migrate_existing", ["append", "overwrite"]) {
            guard name == "relocate-migrate" else {
                throw r.error(r.node("migrate_existing") ?? node, "schedule[\(index)].migrate_existing is for `relocate: relocate-migrate`, not '\(name)'")
            }
            step.migrateExisting = existing
        }
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    /// A move with writers begins a round of writers on the moved store, which the turns scheduler cannot start
    /// (it hands out turns through FIFOs made before the run), as for `writers.after_restore: continue`.
    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard scenario.scheduler == "turns", scenario.writers.count > 0 else { return nil }
        return (key, "schedule[\(index)]: relocate with writers needs the free scheduler (the app relaunched on the moved store is a new round of writers, which scheduler: turns cannot start)")
    }

    func render(_ step: Scenario.Step) -> [String] {
        ScheduleTriggers.render(step) + (step.relocation.map { ["    to: \(ScenarioYAML.quote($0.to))"] } ?? [])
            + (step.relocation?.cloudKitDuringMove == true ? ["    cloudkit: on"] : [])
            + (step.migrateExisting.map { ["    migrate_existing: \($0)"] } ?? [])
    }
}

extension Scenario {
    /// A `relocate:` entry's keys besides `migrate_existing` (a `Step` field it shares with backups).
    public struct Relocation: Sendable, Equatable, Codable {
        /// `to:`, the store's new path relative to its volume; by default where seed 002 moves it, the app group.
        public var to = "AppGroup/Library.sqlite"
        /// `cloudkit: on`: CloudKit kept on while moving (seed 002's first attempt); `off`, the default, is not
        /// written back.
        public var cloudKitDuringMove = false
        public init() {}
    }
}

extension Scenario.Step {
    /// The keys of a `relocate:` entry, nil for any other kind.
    public var relocation: Scenario.Relocation? {
        if case .relocate(let relocation) = details { relocation } else { nil }
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
