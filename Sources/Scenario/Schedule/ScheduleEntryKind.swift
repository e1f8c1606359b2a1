import Foundation
import Yams

/// One kind of `schedule:` entry as a scenario file writes it. The parser finds the kind by the key an entry
/// carries (`backup: STRATEGY`, `restore: STRATEGY`, ...) and asks it to read the rest of the entry, so a new kind
/// is one file conforming to this protocol and one line in `ScheduleKinds.all`, never an edit to the parser. The
/// runner's side of the same kind (when it is due and what it does) is a `RunEventKind` in Sources/Runner/Events.
protocol ScheduleEntryKind: Sendable {
    /// The key naming the kind in an entry, and the kind's name in the timeline (`Scenario.Step.action`).
    var key: String { get }
    /// What the key's value is, for messages (`STRATEGY`).
    var argument: String { get }
    /// The keys the kind reads besides its own key, for the hint on an unknown key.
    var keys: [String] { get }
    /// Reads the entry (the reader has not used any key yet); the parser checks for unread keys afterwards.
    func parse(_ reader: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step
    /// The entry's lines in `ScenarioYAML` after its first (`  - key: value`), each indented by four spaces.
    func render(_ step: Scenario.Step) -> [String]
    /// What is wrong with the entry given the whole scenario (the key to point at, and the message), or nil.
    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)?
}

extension ScheduleEntryKind {
    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? { nil }
}

/// The registry of schedule entry kinds.
enum ScheduleKinds {
    static let all: [any ScheduleEntryKind] = [
        CopyStepEntry(action: .backup), CopyStepEntry(action: .restore), CheckpointEntry(), SidecarActionEntry(),
        StoreOperationEntry(key: "vacuum"), StoreOperationEntry(key: "bulk-delete"),
        WriterPauseEntry(key: "pause-writers"), WriterPauseEntry(key: "resume-writers"),
        RelocateEntry(), SyncEntry(), CleanupEntry(), CloudAccountEntry(), CloudDeviceEntry(),
        DamageEntry(),
    ]

    static func kind(_ action: Scenario.Step.Action) -> (any ScheduleEntryKind)? {
        all.first { $0.key == action.rawValue }
    }

    /// Every key a schedule entry may carry, for the hint on an unknown key.
    static var allowedKeys: [String] {
        var seen: Set<String> = []
        return (all.map(\.key) + all.flatMap(\.keys)).filter { seen.insert($0).inserted }
    }

    /// "`backup: STRATEGY` or `restore: STRATEGY`", for the message on an entry of no kind or of two.
    static var choices: String {
        let named = all.map { "`\($0.key): \($0.argument)`" }
        return named.count > 1 ? named.dropLast().joined(separator: ", ") + " or " + named.last! : named.joined()
    }
}

extension ScenarioParser {
    /// One `schedule:` entry, read by the kind whose key it carries.
    static func step(_ node: Node, index: Int, file: String) throws -> Scenario.Step {
        var r = try NodeReader(node, file: file, context: "schedule[\(index)]")
        let present = ScheduleKinds.all.filter { r.keys.contains($0.key) }
        guard present.count == 1, let kind = present.first else {
            throw r.error(node, "schedule[\(index)] needs exactly one of \(ScheduleKinds.choices)")
        }
        let step = try kind.parse(&r, node: node, index: index)
        try r.finish()
        return step
    }
}

extension ScenarioParser {
    /// What needs the whole scenario (entries named by `after_step` and `during_step`, a sidecar named by an
    /// action), at the key's position, once the file is read.
    static func checkRelations(_ scenario: Scenario, nodes: [Node], file: String) throws {
        for (index, step) in scenario.schedule.enumerated() where index < nodes.count {
            guard let problem = ScheduleTriggers.problem(step, index: index, in: scenario.schedule)
                ?? ScheduleKinds.kind(step.action)?.problem(step, index: index, in: scenario) else { continue }
            var r = try NodeReader(nodes[index], file: file, context: "schedule[\(index)]")
            throw r.error(r.node(problem.key), problem.message)
        }
    }
}

extension ScenarioYAML {
    /// The `schedule:` lines of a rendered scenario, each entry written by its kind.
    static func scheduleLines(_ steps: [Scenario.Step]) -> [String] {
        var out = [steps.isEmpty ? "schedule: []" : "schedule:"]
        for step in steps {
            out.append("  - \(step.action.rawValue): \(step.strategy)")
            out += ScheduleKinds.kind(step.action)?.render(step) ?? []
        }
        return out
    }
}
