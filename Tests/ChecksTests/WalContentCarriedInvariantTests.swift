@testable import Checks
import Foundation
import Testing

/// `wal-content-carried` on records built by hand: writer 1 commits at 1, 2 and 3 s; a backup begun at 2.5 s must
/// hold the first two. Holding them holds; holding one is violated, naming the first missing transaction; a
/// backup that cannot be opened is violated only when something had been acknowledged before it began; a run
/// without a completed backup is not exercised.
@Suite struct WalContentCarriedInvariantTests {
    static let name = "wal-content-carried"

    static func verdict(holding count: Int?, start: Double = 2.5) -> Verdict {
        var record = HandBuilt.record()
        if let count {
            record.steps = [HandBuilt.backup("backup-0", start: start, end: start + 0.1, state: HandBuilt.state(count))]
        } else {
            record.steps = [HandBuilt.backup("backup-0", start: start, end: start + 0.1, store: StoreMeasurement(
                label: "backup-0 (command)", path: "/b/backup-0/Library.sqlite", state: Measured(error: "file is not a database"),
                checks: Measured(HandBuilt.report())))]
        }
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func everyCommitAcknowledgedBeforeTheBackupBeganHolds() {
        let verdict = Self.verdict(holding: 2)
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command): every acknowledged transaction is in", "\(verdict)")
        #expect(Self.verdict(holding: 3).status == .held, "a commit acknowledged after the backup began may be in")
    }

    @Test func aBackupMissingAnAcknowledgedCommitIsViolated() {
        let verdict = Self.verdict(holding: 1)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): acknowledged transactions missing"), "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): writer 1 reflects 1 of its transactions, but 2 were acknowledged before the backup began; "
                                     + "first missing: tx 2 (insert Note \(HandBuilt.ids[1].uuidString))"], "\(verdict.evidence)")
        #expect(verdict.fix == WalContentCarried().fix && verdict.owner == nil)
    }

    @Test func anUnreadableBackupIsViolatedOnlyWhenCommitsWereAcknowledgedBeforeIt() {
        let unreadable = Self.verdict(holding: nil)
        #expect(unreadable.status == .violated && unreadable.summary.hasSuffix("backup-0 (command): the backup cannot be opened"), "\(unreadable)")
        #expect(unreadable.evidence.first?.contains("none of the 2 transaction(s) acknowledged before the backup began") == true, "\(unreadable.evidence)")
        let early = Self.verdict(holding: nil, start: 0.5)
        #expect(early.status == .held && early.summary.hasSuffix("unreadable, but no transaction was acknowledged before it began"), "\(early)")
    }

    @Test func withoutACompletedBackupItIsNotExercised() {
        var record = HandBuilt.record()
        record.steps = [HandBuilt.failed("backup-0", .backup, start: 1, end: 2, error: "exited with status 1")]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no completed backup in this run", "\(verdict)")
    }
}
