import FaultFS
import Foundation
import Scenario

/// Fault rules armed for some of the run only: `actor: GLOB` for the calls of the children whose name matches
/// (each child leads a process group of its own, so its tool's processes count too), `while_sidecar: NAME` from
/// the start of each instance of that sidecar to its end; both together for that sidecar's calls only. So
/// latency can widen a race in one tool's reads without slowing the writers. A rule is armed right after its
/// child is spawned: the few calls the child makes before that (its loader's) are outside the scope.
final class ScopedFaults {
    private let scenario: Scenario
    private let journal: RunJournal
    /// Rule id -> index in `faults.rules`, for the report.
    private(set) var armed: [String: Int] = [:]
    /// The ids armed while a sidecar instance runs, by its label (`sidecar-NAME`, `sidecar-NAME.2`).
    private var bySidecar: [String: [String]] = [:]
    private var volume: FaultFSVolume?

    init(scenario: Scenario, journal: RunJournal) {
        self.scenario = scenario
        self.journal = journal
    }

    /// Arms the scoped rules as their children start (nothing to do without scoped rules or FaultFS).
    func watch(volume: any StoreVolume, children: ChildRegistry) {
        guard scenario.faults.rules.contains(where: \.isScoped), let faultFS = volume as? FaultFSVolume else { return }
        self.volume = faultFS
        children.onStart = { [unowned self] child in
            // After the crash the volume is what recovery left: nothing more is injected.
            guard self.journal.record.crash == nil else { return }
            do { try self.arm(for: child, volume: faultFS) } catch {
                self.journal.add(.error("arming a scoped fault rule for \(child.name): \(error)"))
            }
        }
    }

    private func arm(for child: ChildRegistry.Child, volume: FaultFSVolume) throws {
        let sidecarName = child.name.hasPrefix("sidecar-") ? String(child.name.dropFirst("sidecar-".count).split(separator: ".").first ?? "") : nil
        for (index, rule) in scenario.faults.rules.enumerated() where rule.isScoped {
            let actorMatches = rule.hasActor(child.name)
            if let whileSidecar = rule.whileSidecar {
                guard whileSidecar == sidecarName else { continue }
                // While this sidecar runs: every caller, or the actor's calls only when one is named too.
                let id = try actorMatches == nil ? volume.arm(rule) : (actorMatches == true ? volume.arm(rule, processGroups: [child.pid]) : nil)
                guard let id else { continue }
                armed[id] = index
                bySidecar[child.name, default: []].append(id)
                journal.note("faultfs", .fault, "armed rule \(index) while \(child.name) runs: \(rule.ops.text) \(rule.path) -> \(rule.action)")
            } else if actorMatches == true {
                let id = try volume.arm(rule, processGroups: [child.pid])
                armed[id] = index
                journal.note("faultfs", .fault, "armed rule \(index) for \(child.name)'s calls: \(rule.ops.text) \(rule.path) -> \(rule.action)")
            }
        }
    }

    /// Disarms the rules armed while the sidecar instance `label` ran.
    func disarm(sidecar label: String) {
        for id in bySidecar.removeValue(forKey: label) ?? [] {
            try? volume?.disarm(id)
            journal.note("faultfs", .fault, "disarmed rule \(armed[id] ?? -1): \(label) ended")
        }
    }
}
