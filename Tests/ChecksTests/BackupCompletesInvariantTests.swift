@testable import Checks
import Foundation
import Testing

/// `backup-completes` on records built by hand: a backup that reported success holds; one that failed is
/// violated with what the program printed; one a crash cut short is not judged, and a run without a backup is
/// not exercised, each saying why.
@Suite struct BackupCompletesInvariantTests {
    static let name = "backup-completes"

    static func verdict(_ steps: [StepRecord]) -> Verdict {
        var record = HandBuilt.record()
        record.steps = steps
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aBackupThatReportedSuccessHolds() {
        let verdict = Self.verdict([HandBuilt.backup("backup-0", start: 1, end: 1.25, state: HandBuilt.state(1))])
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command) finished in 0.25 s", "\(verdict)")
    }

    @Test func aBackupThatFailedIsViolatedWithItsOutput() {
        let verdict = Self.verdict([HandBuilt.backup("backup-0", start: 1, end: 1.25, state: HandBuilt.state(1)),
                                    HandBuilt.failed("backup-1", .backup, start: 2, end: 2.5, error: "  cp: Library.sqlite-wal: No space left on device\n")])
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 2 check(s): backup-1 (command) failed", "\(verdict)")
        #expect(verdict.evidence == ["backup-1: cp: Library.sqlite-wal: No space left on device"])
        #expect(verdict.severity == .loudFailure && verdict.fix == BackupCompletes().fix)
    }

    @Test func aBackupCutShortOrNoBackupIsNotExercised() {
        let cut = Self.verdict([HandBuilt.failed("backup-0", .backup, start: 1, end: 2, error: nil, interrupted: true)])
        #expect(cut.status == .notApplicable && cut.summary == "not exercised: every backup was cut short by the crash", "\(cut)")
        #expect(Self.verdict([]).summary == "not exercised: no backup in this run")
    }
}
