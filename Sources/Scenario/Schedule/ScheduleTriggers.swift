import Foundation
import Yams

/// The triggers an event kind other than backup and restore takes: `after_commits N`, `at_seconds S`,
/// `after_writers: true`, `after_step I` (once entry I has finished; with `after_writers: true` too, and the writers
/// running then have exited) or `during_step I` (while entry I, a backup or restore, runs; `delay S` after it
/// started). One at most; none means at once (after 0 commits).
enum ScheduleTriggers {
    static let keys = ["after_commits", "at_seconds", "after_writers", "after_step", "during_step", "delay"]

    static func read(_ r: inout NodeReader, into step: inout Scenario.Step, node: Node, index: Int) throws {
        step.afterCommits = try r.int("after_commits", range: 0...ScenarioParser.maximumCommits)
        step.atSeconds = try r.double("at_seconds", range: 0...86_400)
        step.afterWriters = try r.bool("after_writers") ?? false
        step.afterStep = try r.int("after_step", range: 0...10_000)
        step.duringStep = try r.int("during_step", range: 0...10_000)
        step.delay = try r.double("delay", range: 0...600)
        let triggers = [step.afterCommits != nil, step.atSeconds != nil, step.afterWriters, step.afterStep != nil, step.duringStep != nil]
        // `after_step` with `after_writers: true` is one trigger: once that entry has finished and the writers
        // running then (a round started by a restore, `writers.after_restore: continue`) have exited.
        let combined = step.afterStep != nil && step.afterWriters ? 1 : 0
        if triggers.filter({ $0 }).count - combined > 1 {
            throw r.error(node, "schedule[\(index)] takes one of after_commits, at_seconds, after_writers, after_step, during_step (after_writers may go with after_step)")
        }
        for (key, other) in [("after_step", step.afterStep), ("during_step", step.duringStep)] where other == index {
            throw r.error(r.node(key), "schedule[\(index)].\(key) names the entry itself")
        }
        if step.delay != nil, step.duringStep == nil, step.afterStep == nil {
            throw r.error(r.node("delay"), "schedule[\(index)].delay needs during_step or after_step (seconds after that entry started or ended)")
        }
        if !triggers.contains(true) { step.afterCommits = 0 }
    }

    static func render(_ step: Scenario.Step) -> [String] {
        var out: [String] = []
        if let v = step.afterCommits { out.append("    after_commits: \(v)") }
        if let v = step.atSeconds { out.append("    at_seconds: \(v)") }
        if step.afterWriters { out.append("    after_writers: true") }
        if let v = step.afterStep { out.append("    after_step: \(v)") }
        if let v = step.duringStep { out.append("    during_step: \(v)") }
        if let v = step.delay { out.append("    delay: \(v)") }
        return out
    }

    /// Checks what needs the whole schedule: an entry named by `after_step`/`during_step` exists, and the one
    /// named by `during_step` runs a process (a backup or restore). Returns the message, or nil.
    static func problem(_ step: Scenario.Step, index: Int, in schedule: [Scenario.Step]) -> (key: String, message: String)? {
        if let other = step.afterStep, other >= schedule.count {
            return ("after_step", "schedule[\(index)].after_step names schedule[\(other)], but the schedule has \(schedule.count) entries")
        }
        if let other = step.duringStep {
            guard other < schedule.count else {
                return ("during_step", "schedule[\(index)].during_step names schedule[\(other)], but the schedule has \(schedule.count) entries")
            }
            guard [.backup, .restore].contains(schedule[other].action) else {
                return ("during_step", "schedule[\(index)].during_step names schedule[\(other)] (\(schedule[other].action)), which runs no process to be during; name a backup or restore")
            }
        }
        return nil
    }
}
