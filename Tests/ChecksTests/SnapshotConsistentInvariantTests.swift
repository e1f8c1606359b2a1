@testable import Checks
import Foundation
import Testing

/// `snapshot-consistent` on records built by hand: writer 1 inserts notes 0, 1 and 2 (begun at 0.9, 1.9 and
/// 2.9 s). A backup holding a prefix holds; one holding note 2 without note 1, one holding a commit begun after
/// the copy ended, and one holding an object no history explains are violated, each with its evidence; a run
/// without a completed backup is not exercised.
@Suite struct SnapshotConsistentInvariantTests {
    static let name = "snapshot-consistent"

    static func verdict(_ state: StoreState, end: Double = 3.6) -> Verdict {
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: end - 0.1, end: end, state: state)]
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aPrefixOfEveryWritersCommitsHolds() {
        for count in 0...3 {
            let verdict = Self.verdict(HandBuilt.state(count))
            #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command): a prefix of every writer's commits", "\(verdict)")
        }
    }

    @Test func aMixtureOfTwoMomentsIsViolated() {
        var torn = HandBuilt.state(3)
        torn.notes[HandBuilt.ids[1]] = nil
        let verdict = Self.verdict(torn)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): not a state the history can explain"), "\(verdict)")
        #expect(verdict.evidence.first == "backup-0 (command): writer 1: the store matches no prefix of its 3 transactions", "\(verdict.evidence)")
        #expect(verdict.evidence.contains("writer 1 Note \(HandBuilt.ids[2].uuidString): expected absent after tx 1, found state h2 (that state was written by tx 3)"),
                "\(verdict.evidence)")
        #expect(verdict.severity == .damaged && verdict.consequence == SnapshotConsistent().consequence)
    }

    @Test func aCommitBegunAfterTheCopyEndedIsViolated() {
        let verdict = Self.verdict(HandBuilt.state(3), end: 2.5)
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): writer 1: contains tx 3, begun at 2.900 s, after the copy ended at 2.500 s"], "\(verdict.evidence)")
    }

    @Test func anObjectNoHistoryExplainsIsViolated() {
        var state = HandBuilt.state(2)
        let stranger = UUID()
        state.notes[stranger] = "from nowhere"
        let verdict = Self.verdict(state)
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): Note \(stranger.uuidString) is in no history and not in the initial store"], "\(verdict.evidence)")
    }

    @Test func withoutACompletedBackupItIsNotExercised() {
        let verdict = HandBuilt.verdict(HandBuilt.record(), Self.name)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no completed backup in this run", "\(verdict)")
    }
}
