import Checks
import FaultFS
import FaultVocabulary
import Scenario
import Testing
@testable import Explore

/// The shrinker's candidates for a `try --deep` repro (issue 39, point 4), on the deep search's own backup base:
/// dropping the first backup renames the searched backup's child in the rule that names it, halving the writers'
/// transactions scales the steps' `after_commits` with them, the step the rule names is never dropped, and the
/// point only moves to earlier Ns.
struct ShrinkerReproTests {
    /// The deep search's backup base with a walk's rule at N=5 on the second backup's child.
    static func repro() -> Scenario {
        var s = Scenario(name: "deep-backup")
        s.scheduler = "turns"
        s.writers.count = 1
        s.writers.transactions = 30
        s.writers.blobFraction = 0
        s.store.objects = 200
        s.store.blobFraction = 0
        var first = Scenario.Step(action: .backup, strategy: "command")
        first.command = "sh backup.sh"
        first.afterCommits = 10
        var second = first
        second.afterCommits = 20
        s.schedule = [first, second]
        var rule = Scenario.Rule()
        rule.ops = [.fsync, .fsyncdir, .rename, .unlink]
        rule.nth = 5
        rule.action = .crash(.keepNone)
        rule.actor = "backup-1"
        s.faults.rules = [rule]
        return s
    }

    @Test func theCandidatesKeepTheNamedStepAndItsChild() throws {
        let s = Self.repro()
        let candidates = Shrinker.reproCandidates(s)
        #expect(candidates.map(\.0) == ["steps 2 -> 1 (dropped schedule[0], backup command)", "transactions 30 -> 2", "transactions 30 -> 15",
                                        "store objects 200 -> 10", "store objects 200 -> 100"])
        let dropped = try #require(candidates.first?.1)
        #expect(dropped.schedule.count == 1 && dropped.schedule[0].afterCommits == 20)
        #expect(dropped.faults.rules[0].actor == "backup-0", "the searched backup is step 0 now, and its child backup-0")
        #expect(Shrinker.reproCandidates(dropped).allSatisfy { !$0.0.hasPrefix("steps") }, "the step the rule names stays")
        let fewer = candidates[2].1
        #expect(fewer.writers.transactions == 15 && fewer.schedule.map(\.afterCommits) == [5, 10])
        // Never down to 0: a step after commits waits for the writer's first, which has then opened the store; and
        // the writer keeps a turn after the last step, so it is still running (its -wal unmerged) when the step comes.
        #expect(candidates[1].1.writers.transactions == 2 && candidates[1].1.schedule.map(\.afterCommits) == [1, 1])
    }

    @Test func aStepAnotherWaitsOnIsNotDropped() {
        var s = Self.repro()
        s.schedule[1].afterCommits = nil
        s.schedule[1].afterStep = 0
        #expect(Shrinker.reproCandidates(s).allSatisfy { !$0.0.hasPrefix("steps") })
    }

    @Test func anInterleavingKeepsTheCommitsItsHeldCallWaitsFor() {
        var s = Self.repro()
        s.writers.transactions = 40
        s.schedule = [s.schedule[1]]
        s.faults.rules[0].actor = "backup-0"
        s.faults.rules[0].action = .hold(FaultAction.defaultHoldMilliseconds)
        s.faults.rules[0].whileHeld = [.commit(4), .checkpoint(.passive), .commit(1)]
        // The least that leaves room: 40 -> 11, the backup after 5 of 11 commits, 5 held, one turn left; then half,
        // 40 -> 20. 10 -> anything fewer: after half of them, then 5 held and one left, is more than there are.
        #expect(Shrinker.reproCandidates(s).filter { $0.0.hasPrefix("transactions") }.map(\.0) == ["transactions 40 -> 11", "transactions 40 -> 20"])
        var small = s
        small.writers.transactions = 10
        small.schedule[0].afterCommits = 5
        #expect(!Shrinker.reproCandidates(small).contains { $0.0.hasPrefix("transactions") })
    }

    @Test func thePointMovesOnlyEarlierTheEarliestFirst() {
        let s = Self.repro()
        let points = Shrinker.pointCandidates(s, rule: 0, earlier: [7, 3, 1, 5])
        #expect(points.map(\.0) == ["point N 5 -> 1", "point N 5 -> 3"])
        #expect(points.first?.1.faults.rules[0].nth == 1)
        #expect(Shrinker.size(s, rule: 0) == "30 transactions, 200 store objects, 2 steps, point N=5")
    }
}

/// Aiming a shrunk repro's point at the same call (`DeepSearch.reaimed`) and listing the earlier ones
/// (`DeepSearch.earlierPoints`), on call lists as the op log gives them.
struct DeepShrinkPointTests {
    static func calls(_ list: [(String, String)]) -> [DeepSearch.Call] { list.map { DeepSearch.Call(op: FaultOp(rawValue: $0.0)!, path: $0.1) } }
    static let write = DeepSearch.CallKind(op: .write, fileClass: .db)

    @Test func theLastWriteOfACopyStaysTheLastWhenTheStoreIsSmaller() {
        let old = Self.calls([("write", "/b/x.sqlite-journal")] + Array(repeating: ("write", "/b/x.sqlite"), count: 6) + [("write", "/b/m.txt")])
        let new = Self.calls([("write", "/b/x.sqlite-journal")] + Array(repeating: ("write", "/b/x.sqlite"), count: 2) + [("write", "/b/m.txt")])
        #expect(DeepSearch.reaimed(7, from: old, to: new, call: Self.write) == 3, "the last write of the database, N 7 -> 3")
        #expect(DeepSearch.reaimed(2, from: old, to: new, call: Self.write) == 2, "the first stays the first")
        #expect(DeepSearch.reaimed(1, from: old, to: new, call: Self.write) == nil, "N=1 is the journal's, not a database write")
    }

    @Test func theEarlierPointsAreTheFirstAndLastOfEachRunOfTheSameClass() {
        let list = Self.calls([("write", "/b/x.sqlite"), ("write", "/b/x.sqlite"), ("write", "/b/x.sqlite"), ("fsync", "/b/x.sqlite"),
                               ("write", "/b/y.sqlite-wal"), ("write", "/b/x.sqlite")])
        // N counts the walk's ops (write) only: 1-3 the first run, 4 the -wal, 5 the database again.
        #expect(DeepSearch.earlierPoints(in: list, ops: [.write], call: Self.write) == [1, 3, 5])
    }

    /// SQLite syncs with fdatasync, which the op log names as such while a walk over `fsync` counts it as an fsync's
    /// call: a hit on it is re-aimed at, and compared with, the fsync calls of the same file class.
    @Test func aHitOnAnFdatasyncIsAnFsyncsCallOfItsFile() {
        let hit = FaultHit(op: "fdatasync", path: "/b/x.sqlite-wal")
        let kind = DeepSearch.CallKind(hit)
        #expect(kind == DeepSearch.CallKind(op: .fsync, fileClass: .wal))
        let old = Self.calls([("fsync", "/b/x.sqlite-wal"), ("fsync", "/b/x.sqlite"), ("fsync", "/b/x.sqlite-wal")])
        let new = Self.calls([("fsync", "/b/x.sqlite"), ("fsync", "/b/x.sqlite-wal")])
        #expect(DeepSearch.reaimed(3, from: old, to: new, call: kind) == 2, "the last -wal sync stays the last")
        #expect(DeepSearch.earlierPoints(in: old, ops: [.fsync], call: kind) == [1, 3])
        #expect(DeepSearch.CallKind(FaultHit(op: "crash", path: "")).op == .any, "not a call: matches no counted call")
    }
}
