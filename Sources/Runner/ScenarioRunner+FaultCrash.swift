import Foundation
import Scenario
import Workload

extension ScenarioRunner {
    /// The crash mode of the scenario's `crash` fault rules (`action: crash` or `crash MODE`), or nil without one.
    var crashRuleMode: String? {
        for rule in scenario.faults.rules {
            let words = rule.action.split(separator: " ").map(String.init)
            if words.first == "crash" { return words.count > 1 ? words.dropFirst().joined(separator: " ") : "keep-none" }
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
        frozenAt = hit?.at.map { $0 - epoch } ?? now()
        var plan = Scenario.Crash()
        plan.mode = mode
        try simulateCrash(plan, children: children, volume: volume, live: live,
                          reason: "right after the call a crash rule fired on" + (hit.map { " (\($0.summary))" } ?? ""))
        return true
    }

    /// Between the freeze and the crash every call fails with EIO, and a writer sees its transaction fail where a
    /// real power cut would have left it without an answer. So after a crash rule: a writer's transaction that
    /// failed after its last commit before the freeze was in flight at the crash, and transactions begun after
    /// the freeze never reached the disk at all (dropped). Failures before that (other rules) stay failures.
    func withoutFreezeArtifacts(_ transactions: [Transaction]) -> [Transaction] {
        guard crashedByRule, let frozenAt else { return transactions }
        let lastAck = Dictionary(grouping: transactions.filter { ($0.ackAt ?? .infinity) <= frozenAt }, by: \.writer)
            .mapValues { $0.compactMap(\.ackAt).max() ?? -.infinity }
        return transactions.compactMap { transaction in
            guard transaction.outcome == .failed, transaction.intentAt > lastAck[transaction.writer, default: -.infinity] else { return transaction }
            if transaction.intentAt > frozenAt { return nil }
            var inFlight = transaction
            inFlight.outcome = .inFlight
            inFlight.error = nil
            return inFlight
        }
    }
}
