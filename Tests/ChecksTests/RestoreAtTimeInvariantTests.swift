@testable import Checks
import Foundation
import Testing

/// `restore-at-time` on records built by hand: writer 1 begins its transactions at 0.9, 1.9 and 2.9 s and each is
/// acknowledged 0.1 s later. A store restored to 2.5 s must hold exactly the first two; to 2.95 s, two or three
/// (the third was in flight). Too few, too many, an object no history explains and an unreadable store are
/// violated; a run without a point-in-time restore is not exercised.
@Suite struct RestoreAtTimeInvariantTests {
    static let name = "restore-at-time"

    static func verdict(at: Double?, restored: StoreState?, succeeded: Bool = true) -> Verdict {
        var record = HandBuilt.record()
        let state: Measured<StoreState> = restored.map { Measured($0) } ?? Measured(error: "file is not a database")
        var restore = HandBuilt.restore(start: 5, end: 5.2, live: StoreMeasurement(label: "live store after restore-1 (command)", path: "/s/Library.sqlite",
                                                                                  state: state, checks: Measured(HandBuilt.report())))
        restore.restore?.atTime = at
        restore.succeeded = succeeded
        record.steps = [restore]
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func theStoreAsItWasAtTheMomentHolds() {
        let verdict = Self.verdict(at: 2.5, restored: HandBuilt.state(2))
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): restore-1 (command): every writer's history as it stood at 2.500 s", "\(verdict)")
        #expect(Self.verdict(at: 2.95, restored: HandBuilt.state(2)).status == .held, "the transaction in flight may be out")
        #expect(Self.verdict(at: 2.95, restored: HandBuilt.state(3)).status == .held, "the transaction in flight may be in")
    }

    @Test func tooManyOrTooFewCommitsAreViolated() {
        let tooMany = Self.verdict(at: 2.5, restored: HandBuilt.state(3))
        #expect(tooMany.status == .violated && tooMany.summary.hasSuffix("restore-1 (command): not the store as it was at 2.500 s"), "\(tooMany)")
        #expect(tooMany.evidence == ["restore-1 (command): writer 1 shows its first 3 transaction(s); at 2.500 s it had 2 acknowledged (2 begun)"], "\(tooMany.evidence)")
        let tooFew = Self.verdict(at: 2.5, restored: HandBuilt.state(1))
        #expect(tooFew.status == .violated && tooFew.evidence == ["restore-1 (command): writer 1 shows its first 1 transaction(s); at 2.500 s it had 2 acknowledged (2 begun)"], "\(tooFew)")
        #expect(tooFew.fix == RestoreAtTime().fix)
    }

    @Test func anObjectNoHistoryExplainsIsViolated() {
        var state = HandBuilt.state(2)
        let stranger = UUID()
        state.notes[stranger] = "from a later segment"
        let verdict = Self.verdict(at: 2.5, restored: state)
        #expect(verdict.status == .violated && verdict.evidence == ["restore-1 (command): Note \(stranger.uuidString) is in no history and not in the initial store"], "\(verdict)")
    }

    @Test func anUnreadableRestoredStoreIsViolated() {
        let verdict = Self.verdict(at: 2.5, restored: nil)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("restore-1 (command): the restored store cannot be read"), "\(verdict)")
        #expect(verdict.evidence == ["restore-1 (command): file is not a database"])
    }

    @Test func withoutAPointInTimeRestoreItIsNotExercised() {
        let why = "not exercised: no point-in-time restore (a restore with at_time) in this run"
        #expect(Self.verdict(at: nil, restored: HandBuilt.state(3)).summary == why)
        #expect(Self.verdict(at: 2.5, restored: HandBuilt.state(3), succeeded: false).summary == why, "a failed restore restored nothing")
    }
}
