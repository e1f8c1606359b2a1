import Foundation
import Yams

/// `checkpoint: passive | full | restart | truncate`: `PRAGMA wal_checkpoint(MODE)` from a connection of its own,
/// in a child process, while the writers (and a backup tool) work: another part of the app, or another process,
/// checkpointing the store. Its result (busy, frames in the -wal, frames checkpointed) goes in the timeline.
struct CheckpointEntry: ScheduleEntryKind {
    static let modes = ["passive", "full", "restart", "truncate"]
    var key: String { "checkpoint" }
    var argument: String { Self.modes.joined(separator: "|") }
    var keys: [String] { ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let mode = try r.choice(key, Self.modes) ?? "passive"
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: mode)
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] { ScheduleTriggers.render(step) }
}
