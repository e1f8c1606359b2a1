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
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: what)
        if let container = try r.string("container") {
            guard !container.isEmpty, !container.contains("/"), container != ".", container != ".." else {
                throw r.error(r.node("container") ?? node, "schedule[\(index)].container must be a plain file name stem (no /), not '\(container)'")
            }
            step.options["container"] = container
        }
        if let unlessOpen = try r.bool("unless_open") { step.options["unless_open"] = String(unlessOpen) }
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] {
        ScheduleTriggers.render(step)
            + (step.options["container"].map { ["    container: \(ScenarioYAML.quote($0))"] } ?? [])
            + (step.options["unless_open"].map { ["    unless_open: \($0)"] } ?? [])
    }

    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard scenario.schedule.prefix(index).contains(where: { $0.action.rawValue == "relocate" }) else {
            return (key, "schedule[\(index)]: `cleanup: old-store` removes the store a `relocate` entry moved away from; put a relocate before it")
        }
        return nil
    }
}
