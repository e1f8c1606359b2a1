@testable import Checks
import Foundation
import Testing

/// `restore-fails-safe` on records built by hand: the store held notes 0-2 when the restore began, the backup
/// holds note 0 alone, and the restore reported failure. Leaving the store as it was, or as the backup whole,
/// holds; leaving it empty, unreadable or a mixture is violated, with the program's words and the counts; notes
/// the app saved meanwhile are set aside; succeeded restores, the second restore of a round, a place that held no
/// store and records with no reading of the failed restore's store give it nothing to examine.
@Suite struct RestoreFailsSafeInvariantTests {
    static let name = "restore-fails-safe"
    static let error = "lifeboat: operation failed: command exited with status 1:\ncp: error writing 'Library.sqlite': No space left on device"

    /// A failed restore of backup-0 (note 0) that left `left`; the round's reading before it (at `beforeAt`) held
    /// `before`, and the failed restore's store was read at 4.3.
    static func record(left: Measured<StoreState>?, before: StoreState? = HandBuilt.state(3), beforeAt: Double = 3.5,
                       restores: Int = 1) -> RunRecord {
        var record = HandBuilt.record()
        record.rounds = [RoundRecord(number: 0, start: 0, base: [:], liveBeforeRestore: before, liveBeforeRestoreAt: beforeAt)]
        record.steps = [HandBuilt.backup("backup-0", start: 1.5, end: 1.6, state: HandBuilt.state(1))]
        for index in 0..<restores {
            var restore = HandBuilt.failed("restore-\(index + 1)", .restore, start: 4 + Double(index), end: 4.2 + Double(index), error: error)
            restore.restore = RestoreMeasurement(source: "backup-0", live: StoreMeasurement(label: "live store after restore-\(index + 1) (command)",
                                                                                              path: "/s/Library.sqlite", state: left,
                                                                                              checks: Measured(HandBuilt.report())))
            restore.restore?.readAt = 4.3 + Double(index)
            record.steps.append(restore)
        }
        return record
    }

    static func verdict(_ record: RunRecord) -> Verdict { HandBuilt.verdict(record, name) }

    @Test func aFailedRestoreThatLeftTheStoreAsItWasOrAsTheBackupHolds() {
        let untouched = Self.verdict(Self.record(left: Measured(HandBuilt.state(3))))
        #expect(untouched.status == .held && untouched.summary == "held in 1 check(s): restore-1 (command) failed and left the store as it was, 3 objects", "\(untouched)")
        let swapped = Self.verdict(Self.record(left: Measured(HandBuilt.state(1))))
        #expect(swapped.status == .held && swapped.summary.hasSuffix("restore-1 (command) failed after the backup was in place whole; the store equals the backup"), "\(swapped)")
    }

    @Test func aFailedRestoreThatLeftTheStoreEmptyOrUnreadableIsViolated() {
        let empty = Self.verdict(Self.record(left: Measured(StoreState())))
        #expect(empty.status == .violated && empty.summary == "violated in 1 of 1 check(s): restore-1 (command) failed and left the store empty", "\(empty)")
        #expect(empty.evidence == ["restore-1 (command): lifeboat: operation failed: command exited with status 1:",
                                   "restore-1 (command): 0 objects after it; 0 as before the restore (3 then) and 0 as in the backup (1 there)"], "\(empty.evidence)")
        #expect(empty.fix == RestoreFailsSafe().fix && !empty.isAppsOwn)
        let gone = Self.verdict(Self.record(left: Measured(error: "no store at /s/Library.sqlite")))
        #expect(gone.status == .violated && gone.summary.hasSuffix("restore-1 (command) failed and left no store the app can read where its store was"), "\(gone)")
        #expect(gone.evidence.contains("restore-1 (command): no store at /s/Library.sqlite") && gone.evidence.last == "before the restore the store held 3 objects", "\(gone.evidence)")
    }

    @Test func aFailedRestoreThatLeftAMixtureIsViolated() {
        // Notes 0 and 1 of the old store: neither the store as it was (0-2) nor the backup (0).
        let mixture = Self.verdict(Self.record(left: Measured(HandBuilt.state(2))))
        #expect(mixture.status == .violated && mixture.summary.hasSuffix("restore-1 (command) failed and left the store neither as it was nor as the backup"), "\(mixture)")
        #expect(mixture.evidence.last == "restore-1 (command): 2 objects after it; 2 as before the restore (3 then) and 1 as in the backup (1 there)", "\(mixture.evidence)")
    }

    @Test func whatTheAppSavedWhileTheRestoreRanIsSetAside() {
        // Read before the restore at 2.5, holding notes 0 and 1; writer 1's note 2 was acknowledged at 3, before
        // the failed restore's store was read at 4.3: the app's own save, not the restore's doing.
        let kept = Self.verdict(Self.record(left: Measured(HandBuilt.state(3)), before: HandBuilt.state(2), beforeAt: 2.5))
        #expect(kept.status == .held && kept.summary.hasSuffix("failed and left the store as it was, 3 objects (1 object(s) the app saved meanwhile set aside)"), "\(kept)")
        // Without the set-aside the same store would be a change: the note is only the app's because of its time.
        let before = Self.verdict(Self.record(left: Measured(HandBuilt.state(3)), before: HandBuilt.state(2), beforeAt: 3.5))
        #expect(before.status == .violated, "\(before)")
    }

    @Test func withoutAFailedRestoreOverAStoreItIsNotExercised() {
        var succeeded = HandBuilt.record()
        succeeded.steps = [HandBuilt.backup("backup-0", start: 1.5, end: 1.6, state: HandBuilt.state(1)), HandBuilt.restore()]
        let notExercised = "not exercised: " + RestoreFailsSafe().notExercised(JudgedRun(succeeded))
        #expect(Self.verdict(succeeded).status == .notApplicable && Self.verdict(succeeded).summary == notExercised)
        // A record from before this invariant: the failed restore's store was not read.
        #expect(Self.verdict(Self.record(left: nil)).summary == notExercised)
        // A restore into a place that held no store has nothing to keep.
        #expect(Self.verdict(Self.record(left: Measured(StoreState()), before: nil)).summary == notExercised)
        // The second failed restore of a round is not judged against the reading taken for the first.
        let second = Self.verdict(Self.record(left: Measured(HandBuilt.state(3)), restores: 2))
        #expect(second.status == .held && second.summary == "held in 1 check(s): restore-1 (command) failed and left the store as it was, 3 objects", "\(second)")
    }
}
