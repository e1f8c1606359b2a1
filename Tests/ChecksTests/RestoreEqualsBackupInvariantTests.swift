@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreCheck
import Testing

/// `restore-equals-backup` on records built by hand: a restored tiny real store compared with its backup, as a
/// run compares them, holds when equal and is violated, naming the lost note, when the restore lost one; a
/// comparison that could not be made is violated; a restore a crash cut short must leave the store as it was
/// before or as the backup, never a mixture; a run without a completed restore is not exercised.
@Suite struct RestoreEqualsBackupInvariantTests {
    static let name = "restore-equals-backup"

    /// A backup and a restore of it: the restored store is a copy of the backup, less `lost` notes.
    static func record(_ scratch: Scratch, lost: Int) throws -> (RunRecord, [UUID]) {
        let backup = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite")
        let restored = try HandBuilt.copy(backup, to: "live/Library.sqlite", in: scratch)
        let gone = try HandBuilt.deleteNotes(restored, count: lost)
        var record = HandBuilt.record()
        var restore = HandBuilt.restore(live: HandBuilt.measured(restored, label: "live store after restore-1 (command)"))
        restore.restore?.comparison = Measure.comparison(restored, against: backup)
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, store: HandBuilt.measured(backup, label: "backup-0 (command)")), restore]
        return (record, gone)
    }

    @Test func aRestoreEqualToItsBackupHolds() throws {
        let (record, _) = try Self.record(try Scratch("equals-held"), lost: 0)
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): restore-1 (command): equal object by object and blob by blob", "\(verdict)")
    }

    @Test func aRestoreThatLostANoteIsViolatedNamingIt() throws {
        let (record, gone) = try Self.record(try Scratch("equals-violated"), lost: 1)
        let judgement = Judge.judge(record)
        let verdict = HandBuilt.verdict(judgement, Self.name)
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 1 check(s): restore-1 (command): differs from the backup", "\(verdict)")
        #expect(verdict.evidence.contains { $0.hasPrefix("restore-1 (command): violation missing-object Note") && $0.contains(gone[0].uuidString) }, "\(verdict.evidence)")
        #expect(verdict.fix == RestoreEqualsBackup().fix && !judgement.expectationMet)
    }

    @Test func aComparisonThatCouldNotBeMadeIsViolated() {
        var record = HandBuilt.record()
        var restore = HandBuilt.restore()
        restore.restore?.comparison = Measured(error: "the backup at /b/backup-0/Library.sqlite cannot be opened")
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)), restore]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("restore-1 (command): cannot compare"), "\(verdict)")
        #expect(verdict.evidence == ["the backup at /b/backup-0/Library.sqlite cannot be opened"])
    }

    /// The live store held note 0 before the restore; the backup holds notes 0-2; a crash cut the restore short.
    static func cutShort(leaving state: StoreState) -> Verdict {
        var record = HandBuilt.record()
        record.rounds = [RoundRecord(number: 0, start: 0, base: [:], liveBeforeRestore: HandBuilt.state(1))]
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)),
                        HandBuilt.restore(live: HandBuilt.clean("live store after the crash", state: state), interrupted: true)]
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aRestoreCutShortLeavesAllOrNothing() {
        let before = Self.cutShort(leaving: HandBuilt.state(1))
        #expect(before.status == .held && before.summary.hasSuffix("restore-1 (command): cut short by the crash; the live store recovered whole as it was before the restore"), "\(before)")
        let after = Self.cutShort(leaving: HandBuilt.state(3))
        #expect(after.status == .held && after.summary.hasSuffix("cut short by the crash after its commit; the live store equals the backup"), "\(after)")
        let mixture = Self.cutShort(leaving: HandBuilt.state(2))
        #expect(mixture.status == .violated && mixture.summary.hasSuffix("cut short by the crash, the live store is a mixture of the old store and the backup"), "\(mixture)")
        #expect(mixture.evidence == ["restore-1 (command): 2 objects after recovery; 1 as before the restore (1 then), 2 as in the backup (3)"], "\(mixture.evidence)")
        // As many objects as before the restore, but not the same ones.
        let swapped = Self.cutShort(leaving: HandBuilt.state(notes: [HandBuilt.ids[1]: "h1"]))
        #expect(swapped.status == .violated && swapped.evidence == ["restore-1 (command): 1 objects after recovery; 0 as before the restore (1 then), 1 as in the backup (3)"], "\(swapped)")
    }

    @Test func withoutACompletedRestoreItIsNotExercised() {
        var record = HandBuilt.record()
        var atTime = HandBuilt.restore()
        atTime.restore?.atTime = 2.5
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)), atTime,
                        HandBuilt.failed("restore-2", .restore, start: 5, end: 6, error: "exited with status 1")]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no completed restore in this run", "\(verdict)")
    }
}
