import Foundation
import Yams

/// `sidecar: NAME` with `action: kill | stop | start | restart` (or `sidecar: {name: NAME, action: ACTION}`): does
/// that to a sidecar of the scenario at the entry's time. `kill` is SIGKILL to its process group (the tool dies
/// where it stands), `stop` SIGTERM with the sidecar's grace, `start` a new instance of its command when none
/// runs, `restart` stop then start: the backup tool killed and restarted that real reports describe.
struct SidecarActionEntry: ScheduleEntryKind {
    static let actions = Scenario.SidecarAction.allCases.map(\.rawValue)
    var key: String { "sidecar" }
    var argument: String { "NAME" }
    var keys: [String] { ["action"] + ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        var name: String?
        var action: Scenario.SidecarAction?
        if let value = r.node(key), case .mapping = value {
            var inner = try NodeReader(value, file: r.file, context: "schedule[\(index)].sidecar")
            name = try inner.string("name")
            action = try inner.choice("action", Scenario.SidecarAction.self)
            try inner.finish()
        } else {
            name = try r.string(key)
        }
        if let own = try r.choice("action", Scenario.SidecarAction.self) {
            guard action == nil else { throw r.error(r.node("action"), "schedule[\(index)] gives the sidecar's action twice") }
            action = own
        }
        guard let name, !name.isEmpty else { throw r.error(node, "schedule[\(index)].sidecar needs the sidecar's name") }
        guard let action else {
            throw r.error(node, "schedule[\(index)].sidecar needs `action: \(Self.actions.joined(separator: " | "))`")
        }
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: name, details: .sidecar(action))
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard scenario.sidecars.contains(where: { $0.name == step.strategy }) else {
            let known = scenario.sidecars.map(\.name)
            return (key, "schedule[\(index)] names the sidecar '\(step.strategy)', which the scenario does not have"
                + (known.isEmpty ? " (it has no `sidecars:`)" : "; its sidecars: \(known.joined(separator: ", "))"))
        }
        return nil
    }

    func render(_ step: Scenario.Step) -> [String] {
        (step.sidecarAction.map { ["    action: \($0.rawValue)"] } ?? []) + ScheduleTriggers.render(step)
    }
}

extension Scenario {
    /// What a `sidecar:` entry does to its sidecar (`action:`, which the entry must give).
    public enum SidecarAction: String, Sendable, CaseIterable, Codable {
        /// SIGKILL to its process group: the tool dies where it stands.
        case kill
        /// SIGTERM, then SIGKILL after the sidecar's grace.
        case stop
        /// A new instance of its command, when none runs.
        case start
        /// `stop`, then `start`.
        case restart

        /// Whether the running instances are stopped (or killed) first.
        public var stopsRunning: Bool { self != .start }
        /// Whether a new instance is started afterwards.
        public var starts: Bool { self == .start || self == .restart }
    }
}

extension Scenario.Step {
    /// The action of a `sidecar:` entry, nil for any other kind.
    public var sidecarAction: Scenario.SidecarAction? {
        if case .sidecar(let action) = details { action } else { nil }
    }
}
