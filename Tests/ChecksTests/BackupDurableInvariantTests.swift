@testable import Checks
import Foundation
import Testing

/// `backup-durable` on records built by hand: a backup on the store's volume reported success with notes 0 and
/// 1, then the power failed. Reading back whole holds; missing, changed or unreadable after the crash is
/// violated, with the op log's cause; a run without a crash after a backup on the volume is not exercised.
@Suite struct BackupDurableInvariantTests {
    static let name = "backup-durable"
    static let crash = "crash (keep-none) right after backup-0: dropped 3 operation(s)"
    static let cause = "write /b/backup-0/Library.sqlite by backup-0 (command) was never followed by an fsync"

    static func verdict(_ after: BackupAfterCrash?) -> Verdict {
        var record = HandBuilt.record()
        var backup = HandBuilt.backup("backup-0", start: 2.5, end: 2.6, state: HandBuilt.state(2))
        backup.backup?.afterCrash = after
        record.steps = [backup]
        return HandBuilt.verdict(record, Self.name)
    }

    static func after(_ state: StoreState?, missing: Bool = false, error: String? = nil) -> BackupAfterCrash {
        BackupAfterCrash(crash: Self.crash, state: state, missing: missing, error: error, loss: LossRecord(operations: [], cause: Self.cause))
    }

    @Test func aBackupThatReadsBackWholeHolds() {
        let verdict = Self.verdict(Self.after(HandBuilt.state(2)))
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command): reads back whole after the crash", "\(verdict)")
    }

    @Test func aBackupTheCrashTookIsViolatedWithTheCause() {
        let verdict = Self.verdict(Self.after(nil, missing: true))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): missing after the crash"), "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): no file at /b/backup-0/Library.sqlite after \(Self.crash)"])
        #expect(verdict.cause == Self.cause && verdict.severity == .lostOnPowerCut && verdict.fix == BackupDurable().fix)
    }

    @Test func aBackupTheCrashChangedIsViolated() {
        let verdict = Self.verdict(Self.after(HandBuilt.state(1)))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): changed by the crash after it reported success"), "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): 1 object(s) gone, 0 external data file(s) missing after \(Self.crash)"])
        var lostBlob = HandBuilt.state(2)
        lostBlob.missingBlobs = [HandBuilt.ids[0]]
        #expect(Self.verdict(Self.after(lostBlob)).status == .violated, "an attachment the crash took changes the backup")
    }

    @Test func aBackupUnreadableAfterTheCrashIsViolated() {
        let verdict = Self.verdict(Self.after(nil, error: "file is not a database"))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): unreadable after the crash"), "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): file is not a database after \(Self.crash)"])
    }

    @Test func withoutACrashAfterABackupItIsNotExercised() {
        let verdict = Self.verdict(nil)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no crash after a backup on the store's volume (faults.backups_on_volume)", "\(verdict)")
    }
}
