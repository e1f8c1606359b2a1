@testable import Checks
import Foundation
import Testing

/// `previous-backup-intact` on records built by hand: the backup read again after a later backup failed is gone,
/// changed or unchanged; a run in which no backup failed after it is not exercised, saying why.
@Suite struct PreviousBackupIntactTests {
    static func judge(again: BackupAfterFailedStep?) -> Verdict {
        var record = RunRecord(plan: HandBuilt.plan(invariants: ["previous-backup-intact"]))
        var previous = HandBuilt.backup("backup-0", start: 1, end: 2, state: HandBuilt.state(2))
        previous.backup?.afterFailedStep = again
        let failed = StepRecord(name: "backup-1", index: 1, action: .backup, strategy: "command", start: 3, end: 4, round: 0,
                                succeeded: false, interrupted: false, error: "exited with status 1")
        record.steps = [previous, failed]
        return Judge.judge(record).verdicts.first { $0.invariant == "previous-backup-intact" } ?? Verdict("previous-backup-intact", .notApplicable, "absent")
    }

    @Test func aPreviousBackupDeletedByAFailedBackupIsViolated() {
        let verdict = Self.judge(again: BackupAfterFailedStep(failedStep: "backup-1 (command)", state: nil, missing: true, error: nil))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): gone after backup-1 (command) failed"), "\(verdict)")
    }

    @Test func aPreviousBackupChangedByAFailedBackupIsViolated() {
        let verdict = Self.judge(again: BackupAfterFailedStep(failedStep: "backup-1 (command)", state: HandBuilt.state(1), missing: false, error: nil))
        #expect(verdict.status == .violated && verdict.evidence.first?.hasPrefix("backup-0 (command): 1 object(s) gone") == true, "\(verdict)")
    }

    @Test func aPreviousBackupLeftAsItWasHolds() {
        let verdict = Self.judge(again: BackupAfterFailedStep(failedStep: "backup-1 (command)", state: HandBuilt.state(2), missing: false, error: nil))
        #expect(verdict.status == .held, "\(verdict)")
    }

    @Test func withoutAFailedBackupAfterItItIsNotExercised() {
        let verdict = Self.judge(again: nil)
        #expect(verdict.status == .notApplicable && verdict.summary.contains("no backup step failed after an earlier backup"), "\(verdict)")
    }
}
