import Foundation
import StoreCheck

/// `restore-detects-damage`: a backup damaged at rest (a `damage` entry: a flipped bit, a cut, a zeroed page, a
/// missing attachment or -wal) is either refused loudly (the restore, or the tool's verify inside it, fails) or
/// restored into a correct store: one that passes integrity and equals the backup as it was before the damage
/// (the damage touched nothing that mattered). A damaged backup restored silently into a store that fails
/// integrity or differs is the finding, the commonest real backup failure (Jepsen's NATS analysis; issue 30).
/// The same for damage to the live store: a backup taken after it must fail loudly or be whole.
struct RestoreDetectsDamage: Invariant {
    let name = "restore-detects-damage"
    let fix = "verify before restoring: keep a checksum of every file at backup time and check it (and PRAGMA integrity_check) before the backup replaces the store; refuse, loudly, what does not match"
    let consequence = "a damaged backup was restored without a word: the app now runs on a broken or different store"
    let severity = Severity.damaged

    /// The checker's findings that say a store is not whole (integrity_check, bookkeeping, unreadable).
    static let broken: Set<Finding.Kind> = [.integrity, .bookkeeping, .metadata, .unreadable, .danglingRelationship]

    func check(_ run: JudgedRun) -> [Verdict] {
        run.record.damages.filter(\.applied).flatMap { damage -> [Verdict] in
            let steps = damage.target == "live"
                ? run.backups.filter { $0.start >= damage.at }
                : run.restores.filter { $0.start >= damage.at && $0.restore?.source == damage.target }
            return steps.compactMap { step in verdict(step, damage: damage) }
        }
    }

    func verdict(_ step: StepRecord, damage: DamageRecord) -> Verdict? {
        let said = damage.summary
        if step.interrupted { return nil }
        guard step.succeeded else {
            // The program's own words: the runner's first line ("lifeboat: operation failed: command ... exited
            // with status 1:") says only that it failed.
            let lines = (step.error ?? "").split(separator: "\n").map(String.init)
            let own = lines.drop { $0.hasPrefix("lifeboat: ") }.filter { !$0.hasPrefix("(full output") }
            return Verdict(name, .held, "\(step.label) refused the damaged \(damage.target == "live" ? "live store" : "backup") loudly: \(own.first ?? lines.first ?? "failed")",
                           evidence: [said] + own.dropFirst().prefix(3).map { "\(step.name): \($0)" })
        }
        let store = damage.target == "live" ? step.backup?.store : step.restore?.live
        let what = damage.target == "live" ? "backed up the damaged live store" : "restored the damaged backup"
        guard let store else { return nil }
        if let report = store.checks.value {
            let findings = report.violations.filter { Self.broken.contains($0.kind) }
            if !findings.isEmpty {
                return Verdict(name, .violated, "\(step.label) \(what) silently: the result fails integrity",
                               evidence: [said] + findings.prefix(8).map { "\(store.label): \($0)" })
            }
        } else {
            return Verdict(name, .violated, "\(step.label) \(what) silently: the result cannot be read",
                           evidence: [said, "\(store.label): \(store.checks.error ?? "?")"])
        }
        if damage.target == "live" {
            if step.backup?.store.state?.value == nil {
                return Verdict(name, .violated, "\(step.label) \(what) silently: the backup cannot be opened as a store", evidence: [said])
            }
            return Verdict(name, .held, "\(step.label) after the damage: the backup passes integrity", evidence: [said])
        }
        guard let comparison = step.restore?.undamagedComparison else {
            return Verdict(name, .notApplicable, "\(step.label): no comparison with the backup as it was before the damage")
        }
        guard let report = comparison.value else {
            return Verdict(name, .violated, "\(step.label) \(what) silently: cannot compare with the backup as taken",
                           evidence: [said, comparison.error ?? "?"])
        }
        if report.hasViolations {
            return Verdict(name, .violated, "\(step.label) \(what) silently: the restored store differs from the backup as it was taken",
                           evidence: [said] + report.violations.prefix(10).map { "\(step.label): \($0)" })
        }
        return Verdict(name, .held, "\(step.label): the restored store equals the backup as taken (the damage touched nothing it holds)", evidence: [said])
    }

    func notExercised(_ run: JudgedRun) -> String {
        let skipped = run.record.damages.filter { !$0.applied }
        if !skipped.isEmpty { return skipped.map(\.summary).joined(separator: "; ") }
        return run.record.damages.isEmpty ? "no damage in this run (add a `damage:` entry)" : "no restore (or, for the live store, no backup) came after the damage"
    }
}
