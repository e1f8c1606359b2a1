import Foundation
import Yams

/// `cleanup: old-store`: seed 002's cleanup of the store the last `relocate` moved away from, as a step of its
/// own (docs/cloudkit.md, "The seed's cleanup"): `destroyPersistentStore` at the old path, then the removal of
/// the old `.sqlite` and of `<container>.sqlite-wal`, `-shm` and `ckAssetFiles` beside it. `container:` is the
/// name the seed's code builds the companions' names from (`container.name`, the CloudKit container; default:
/// the store's own name, `Library`); `unless_open: true` is the condition the seed quotes ("if you can ensure no
/// other process or a different thread is accessing them"): the step looks at every process of the run first and
/// does nothing while one holds a file of the old store open.
struct CleanupEntry: ScheduleEntryKind {
    var key: String { "cleanup" }
    var argument: String { "old-store" }
    var keys: [String] { ScheduleTriggers.keys + ["container", "unless_open"] }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let what = try r.string(key) ?? ""
        guard what == "old-store" else {
            throw r.error(r.node(key) ?? node, "schedule[\(index)]: `cleanup:` takes `old-store` (the store the last relocate moved away from), not '\(what)'")
        }
        var cleanup = Scenario.Cleanup()
        if let container = try r.string("container") {
            guard !container.isEmpty, !container.contains("/"), container != ".", container != ".." else {
                throw r.error(r.node("container") ?? node, "schedule[\(index)].container must be a plain file name stem (no /), not '\(container)'")
            }
            cleanup.container = container
        }
        cleanup.unlessOpen = try r.bool("unless_open")
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: what, details: .cleanup(cleanup))
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] {
        ScheduleTriggers.render(step)
            + (step.cleanup?.container.map { ["    container: \(ScenarioYAML.quote($0))"] } ?? [])
            + (step.cleanup?.unlessOpen.map { ["    unless_open: \($0)"] } ?? [])
    }

    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard scenario.schedule.prefix(index).contains(where: { $0.action.rawValue == "relocate" }) else {
            return (key, "schedule[\(index)]: `cleanup: old-store` removes the store a `relocate` entry moved away from; put a relocate before it")
        }
        return nil
    }
}

extension Scenario {
    /// A `cleanup:` entry's keys, each as the file gives it (nil when absent), so a repro writes back what the
    /// file said.
    public struct Cleanup: Sendable, Equatable, Codable {
        /// `container:`, the stem of the companions' names; nil: the old store's own name (known only once the
        /// run has moved it).
        public var container: String?
        /// `unless_open:` as written.
        public var unlessOpen: Bool?
        /// The seed's condition applies (`unless_open: true`; off unless the file says so).
        public var onlyWhenNoneHoldsIt: Bool { unlessOpen ?? false }
        public init() {}
    }
}

extension Scenario.Step {
    /// The keys of a `cleanup:` entry, nil for any other kind.
    public var cleanup: Scenario.Cleanup? {
        if case .cleanup(let cleanup) = details { cleanup } else { nil }
    }
}
