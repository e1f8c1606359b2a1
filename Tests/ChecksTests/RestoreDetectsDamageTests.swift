@testable import Checks
import Foundation
@testable import StoreCheck
import Testing

/// `restore-detects-damage` on records built by hand: a damaged backup refused loudly holds, restored into a store
/// that fails integrity or differs from the backup as taken is violated, restored into an equal store holds, and
/// a run without damage (or whose damage found nothing to damage) is not exercised, saying why.
@Suite struct RestoreDetectsDamageTests {
    static func damage(target: String = "backup-0", applied: Bool = true) -> DamageRecord {
        var damage = DamageRecord(name: "damage-1", index: 1, kind: "truncate", target: target, place: "main", at: 5, applied: applied,
                                  reason: applied ? nil : "no -wal beside Library.sqlite to remove")
        if applied { (damage.file, damage.fileBytes, damage.offset, damage.length) = ("Library.sqlite", 40_960, 8_192, 32_768) }
        return damage
    }

    static func restore(succeeded: Bool, live: [Finding] = [], differences: [Finding] = []) -> StepRecord {
        var step = StepRecord(name: "restore-2", index: 2, action: .restore, strategy: "command", start: 6, end: 7, round: 0,
                              succeeded: succeeded, interrupted: false, error: succeeded ? nil : "lifeboat: operation failed: command `sh restore.sh` exited with status 1:\nrestore-verified: does not match the checksums\n./Library.sqlite: FAILED")
        var measurement = RestoreMeasurement(source: "backup-0", live: HandBuilt.clean("live store after restore-2", findings: live))
        if succeeded {
            var report = CheckReport(store: "/s/Library.sqlite", against: "/scratch/damage-1-undamaged/Library.sqlite")
            for finding in differences { report.add(finding) }
            measurement.undamagedComparison = Measured(report)
        }
        step.restore = measurement
        return step
    }

    static func judge(_ steps: [StepRecord], damages: [DamageRecord], expect: String = "pass") -> Verdict {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["restore-detects-damage"], expect: expect))
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, state: HandBuilt.state(0))] + steps
        record.damages = damages
        let judgement = Judge.judge(record)
        return judgement.verdicts.first { $0.invariant == "restore-detects-damage" } ?? Verdict("restore-detects-damage", .notApplicable, "absent")
    }

    @Test func aRestoreThatRefusesTheDamagedBackupHolds() {
        let verdict = Self.judge([Self.restore(succeeded: false)], damages: [Self.damage()])
        #expect(verdict.status == .held, "\(verdict)")
        #expect(verdict.summary.hasSuffix("refused the damaged backup loudly: restore-verified: does not match the checksums"), "\(verdict.summary)")
    }

    @Test func aDamagedBackupRestoredIntoABrokenStoreIsViolated() {
        let broken = Finding(.violation, .integrity, "integrity_check: Page 7: btreeInitPage() returns error code 11")
        let verdict = Self.judge([Self.restore(succeeded: true, live: [broken])], damages: [Self.damage()])
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.summary.contains("restored the damaged backup silently: the result fails integrity"))
        #expect(verdict.evidence.first == "backup-0's Library.sqlite cut from 40960 to 8192 bytes", "\(verdict.evidence)")
    }

    @Test func aDamagedBackupRestoredIntoADifferentStoreIsViolated() {
        let missing = Finding(.violation, .missingExternalFile, entity: "Note", object: "Z_PK 3", "attachment file ABC is missing")
        let verdict = Self.judge([Self.restore(succeeded: true, differences: [missing])], damages: [Self.damage()])
        #expect(verdict.status == .violated && verdict.summary.contains("differs from the backup as it was taken"), "\(verdict)")
    }

    @Test func aRestoreEqualToTheBackupAsTakenHolds() {
        let verdict = Self.judge([Self.restore(succeeded: true)], damages: [Self.damage()])
        #expect(verdict.status == .held && verdict.summary.contains("equals the backup as taken"), "\(verdict)")
    }

    @Test func noDamageOrNothingDamagedIsNotExercisedWithWhy() {
        let none = Self.judge([Self.restore(succeeded: true)], damages: [])
        #expect(none.status == .notApplicable && none.summary == "not exercised: no damage in this run (add a `damage:` entry)", "\(none)")
        let skipped = Self.judge([Self.restore(succeeded: true)], damages: [Self.damage(applied: false)])
        #expect(skipped.status == .notApplicable && skipped.summary.contains("damaged nothing: no -wal"), "\(skipped)")
    }

    @Test func aBackupOfTheDamagedLiveStoreThatFailsIntegrityIsViolated() {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["restore-detects-damage"]))
        let broken = Finding(.violation, .integrity, "integrity_check: row 3 missing from index")
        record.steps = [HandBuilt.backup("backup-2", start: 6, end: 7, state: HandBuilt.state(0), findings: [broken])]
        record.damages = [Self.damage(target: "live")]
        let verdict = Judge.judge(record).verdicts.first { $0.invariant == "restore-detects-damage" }
        #expect(verdict?.status == .violated && verdict?.summary.contains("backed up the damaged live store silently") == true, "\(String(describing: verdict))")
    }
}
