import Foundation
import Yams

/// Operations on the live store from a connection of their own, beside the writers (a child process each):
/// `vacuum: true` (VACUUM: the store shrinks and every page moves) and `bulk-delete: N | P%` (one transaction
/// deleting N objects, or P per cent, of the initial store's notes, recorded in a history of its own so that the
/// oracle knows them gone).
struct StoreOperationEntry: ScheduleEntryKind {
    let key: String

    var argument: String { key == "vacuum" ? "true" : "COUNT|PERCENT%" }
    var keys: [String] { ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        let amount: String
        if key == "vacuum" {
            guard try r.bool(key) == true else { throw r.error(r.node(key) ?? node, "schedule[\(index)].vacuum must be `true`") }
            amount = "true"
        } else {
            let text = try r.string(key) ?? ""
            guard Scenario.Step.bulkDeleteAmount(text) != nil else {
                throw r.error(r.node(key) ?? node, "schedule[\(index)].bulk-delete must be a count of objects (40) or a share of the initial notes (25%), not '\(text)'")
            }
            amount = text
        }
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: amount)
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] { ScheduleTriggers.render(step) }
}

/// `pause-writers: true` and `resume-writers: true`: SIGSTOP and SIGCONT to every writer process (the app goes
/// idle, or is suspended, with its connections open). Free scheduler only: the turns scheduler grants turns
/// itself. Every pause needs a later resume, or the writers never finish.
struct WriterPauseEntry: ScheduleEntryKind {
    let key: String
    var argument: String { "true" }
    var keys: [String] { ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        guard try r.bool(key) == true else { throw r.error(r.node(key) ?? node, "schedule[\(index)].\(key) must be `true`") }
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: "true")
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        if step.afterWriters { throw r.error(node, "schedule[\(index)]: \(key) after the writers have finished does nothing") }
        return step
    }

    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        if scenario.scheduler == "turns" {
            return (key, "schedule[\(index)]: \(key) needs the free scheduler (under `scheduler: turns` the runner grants every writer turn itself)")
        }
        guard key == "pause-writers" else { return nil }
        let pauses = scenario.schedule.filter { $0.action.rawValue == "pause-writers" }.count
        let resumes = scenario.schedule.filter { $0.action.rawValue == "resume-writers" }.count
        if resumes < pauses {
            return (key, "schedule[\(index)]: every pause-writers needs a resume-writers entry after it, or the writers never finish")
        }
        return nil
    }

    func render(_ step: Scenario.Step) -> [String] { ScheduleTriggers.render(step) }
}

extension Scenario.Step {
    /// A bulk delete's amount: a count (`40`) or a share of the initial notes (`25%`, 0 to 100).
    public static func bulkDeleteAmount(_ text: String) -> (count: Int?, share: Double?)? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if trimmed.hasSuffix("%") {
            guard let share = Double(trimmed.dropLast()), share.isFinite, (0...100).contains(share) else { return nil }
            return (nil, share / 100)
        }
        guard let count = Int(trimmed), (0...ScenarioParser.maximumCommits).contains(count) else { return nil }
        return (count, nil)
    }
}
