import FaultVocabulary
import Foundation
import Scenario
import Workload

extension ScenarioRunner {
    /// The crash mode of the scenario's `crash` fault rules (`action: crash` or `crash MODE`), or nil without one.
    var crashRuleMode: CrashMode? {
        for rule in scenario.faults.rules {
            if case .crash(let mode) = rule.action { return mode }
        }
        return nil
    }

    /// When a `crash` rule fired, FaultFS froze the volume right after that call (every later call fails with
    /// EIO, so nothing after it reaches the disk); this is where the runner notices and crashes: it kills the
    /// store's processes and drops what was not durable, with the rule's mode. Returns whether it crashed.
    func crashIfFrozen(children: ChildRegistry, volume: any StoreVolume, live: URL) throws -> Bool {
        guard !crashedByRule, let mode = crashRuleMode, let faultFS = volume as? FaultFSVolume, try faultFS.isFrozen() else { return false }
        crashedByRule = true
        let hit = faultFS.faultHits { self.childRegistry?.name(ofAny: $0) }.values.first
        record.frozenAt = hit?.at.map { $0 - epoch } ?? now()
        var plan = Scenario.Crash()
        plan.mode = mode
        try simulateCrash(plan, children: children, volume: volume, live: live,
                          reason: "right after the call a crash rule fired on" + (hit.map { " (\($0.summary))" } ?? ""))
        return true
    }
}
