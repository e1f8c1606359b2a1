@testable import Explore
import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// Issue 29, point 2: every reduction of the crash-state enumeration (states built from the same operations as one
/// examined, states SQLite recovers to the same pages, the overlay written over the durable files) finds what the
/// full enumeration finds (every state built in memory and examined afresh), on one recorded op log per case
/// (`CrashStateReductionCheck`, `lifeboat crash-states --compare-reductions`).
///
/// Where crash states apply: the drills that run on FaultFS (a mount, fault rules or a device profile), whose op
/// log has the persistence points the enumerator varies. Of the shipped drills, the real-bug catalog and the bug
/// scripts (`Scenarios/bugs`), those are the 25 in `applicable`; every other one is not a FaultFS drill: its
/// crash, if any, kills processes and keeps what they wrote, and its mistake (a copy without the `-wal`, a
/// restore over a live `-wal`, a tool's replica) is one the run itself finds, not one of crash states. The
/// enumerator varies the live store's database files only (`CrashStateEnumerator`), so on a drill whose mistake is
/// in the backup (backup-not-durable, fsync-retry-after-eio, b17, copy-no-sync) both enumerations see the live
/// store's states, which hold, and agree on no finding; the backup's own states are not enumerated.
///
/// CI runs the cases in `ciCases` (about 90 s together, measured in docs/performance.md); the whole list runs in
/// `scripts/reductions-check.sh`, whose figures are in docs/performance.md ("The reductions against the full
/// enumeration").
@Suite(.serialized, .ownThread) struct CrashStateReductionTests {
    /// Every drill where `crash-states --compare-reductions` applies (relative to Scenarios/).
    static let applicable: [String] = [
        "backup-durable.yaml", "backup-not-durable.yaml", "careful-backup-power-cut.yaml", "crash-durable.yaml",
        "crash-during-restore-at-page.yaml", "crash-during-restore.yaml", "crash-loses-unsynced-attachments.yaml",
        "enospc-during-replace.yaml", "enospc-during-restore.yaml", "fresh-store-first-commits.yaml",
        "fsync-eio-copies-again.yaml", "fsync-lies.yaml", "fsync-retry-after-eio.yaml", "migrate-backup-not-durable.yaml",
        "restore-of-incomplete-replace-backup.yaml", "restore-script-never-syncs.yaml", "restore-script-syncs.yaml",
        "trust-crash.yaml",
        "real-bugs/b08-restore-rename-no-dir-fsync-correct.yaml", "real-bugs/b08-restore-rename-no-dir-fsync.yaml",
        "real-bugs/b15-restore-syncs-only-wal-correct.yaml", "real-bugs/b15-restore-syncs-only-wal.yaml",
        "real-bugs/b17-vacuum-into-not-synced-correct.yaml", "real-bugs/b17-vacuum-into-not-synced.yaml",
        "bugs/copy-no-sync.yaml",
    ]

    static var catalog: [String] {
        ["", "real-bugs/", "bugs/"].flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: DrillTests.scenarios.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.map { folder + $0 }
        }.sorted()
    }

    /// One CI case: a drill, how many of the writers' transactions it keeps (fewer states, same shape; nil keeps
    /// the drill's), how many points, and whether its full enumeration finds something (so the comparison covers
    /// failing states, not only passing ones).
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var transactions: Int?
        var maxPoints: Int
        var findsSomething: Bool
        var testDescription: String { file }
    }

    /// Chosen for what they exercise, within about 90 s together (the suite's own fsync-lies comparison,
    /// `CrashStateTests.reusedExaminationsGiveTheVerdictsOfFreshOnes`, covers lost acknowledged commits at
    /// fdatasync points):
    /// - B15 (a restore that syncs only the `-wal`): a restored file renamed over the live store, followed by its
    ///   inode, and states judged against the backup from the restore's start on (`CrashStateRestore`); its loss
    ///   is found at the first point after the restore's success (the unmount's sync-all, checked whatever the
    ///   seed chose: `CrashStateEnumerator.afterRestores`), where the store is not yet the backup;
    /// - B8 (a rename into place with no directory fsync): pending directory entries, whose states are built in
    ///   memory (the overlay applies to data operations only) and the `no pending entries` variant; the same
    ///   point finds the rename lost after the restore reported success;
    /// - enospc-during-restore: a restore cut short by ENOSPC leaves a malformed store, a verifier finding;
    /// - fresh-store-first-commits: states with no main file or one shorter than a page beside a `-wal`.
    static let ciCases: [Case] = [
        Case(file: "real-bugs/b15-restore-syncs-only-wal.yaml", transactions: nil, maxPoints: 4, findsSomething: true),
        Case(file: "real-bugs/b08-restore-rename-no-dir-fsync.yaml", transactions: nil, maxPoints: 4, findsSomething: true),
        Case(file: "enospc-during-restore.yaml", transactions: nil, maxPoints: 2, findsSomething: true),
        Case(file: "fresh-store-first-commits.yaml", transactions: 15, maxPoints: 6, findsSomething: false),
    ]

    @Test func theDrillsWhereCrashStatesApplyAreTheListedOnes() throws {
        var found: [String] = []
        for file in Self.catalog {
            let scenario = try ScenarioParser.parse(file: DrillTests.scenarios.appendingPathComponent(file))
            if CrashStateReductionCheck.notApplicable(scenario) == nil { found.append(file) }
        }
        #expect(found == Self.applicable.sorted(), "update the list here, in scripts/reductions-check.sh's table and docs/campaigns.md")
        #expect(Self.ciCases.allSatisfy { Self.applicable.contains($0.file) })
    }

    @Test(arguments: ciCases)
    func reductionsFindWhatTheFullEnumerationFinds(_ ciCase: Case) throws {
        let scratch = try Scratch("states-reductions")
        let file = DrillTests.scenarios.appendingPathComponent(ciCase.file)
        var scenario = try ScenarioParser.parse(file: file)
        if let transactions = ciCase.transactions { scenario.writers.transactions = transactions }
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        let recording = try CrashStateRun.record(scenario, file: file.path, settings: settings)
        defer { recording.remove() }
        let result = try CrashStateReductionCheck.run(recording, maxPoints: ciCase.maxPoints, seed: 1)
        #expect(result.lost.isEmpty, "findings of the full enumeration the reductions missed: \(result.lost)")
        #expect(result.added.isEmpty, "findings only the reductions made: \(result.added)")
        #expect(result.statesDiffering == 0, "\(result.firstDifferences)")
        #expect(!result.statesMismatched)
        #expect(result.full.statesChecked == result.reduced.statesChecked && result.full.statesChecked > result.full.pointsChecked)
        #expect(result.full.statesExamined == result.full.statesChecked, "the full enumeration examines every state afresh")
        #expect(result.full.statesSameOperations == 0 && result.full.statesSameContent == 0)
        #expect(result.reduced.statesSameOperations + result.reduced.statesSameContent > 0, "the reductions skipped states")
        #expect(result.reduced.statesExamined + result.reduced.statesReused == result.reduced.statesChecked)
        #expect(result.full.statesFailed == result.reduced.statesFailed)
        #expect(!result.fullFindings.isEmpty == ciCase.findsSomething, "\(result.fullFindings)")
    }

    /// A finding is the problem with its numbers masked and the state's cause (variant kind, point): the same
    /// loss at two points of one kind is one finding, a different variant or file another.
    @Test func findingsAreTheProblemAndTheStatesCause() {
        typealias State = CrashStateEnumerator.State
        let points: [UInt64: String] = [10: "fsync /Library.sqlite-wal", 20: "fsync /Library.sqlite-wal", 30: "fsyncdir /"]
        let states: [(State, [String])] = [
            (State(point: 10, variant: "prefix 2", kept: [4, 5], tornCut: nil), ["writer 1: 5 acknowledged before this point, 3 present"]),
            (State(point: 20, variant: "prefix 4", kept: [6], tornCut: nil), ["writer 1: 9 acknowledged before this point, 8 present"]),
            (State(point: 20, variant: "torn seq 6 at +2048", kept: [6], tornCut: 2048), ["writer 2: matches no prefix of its history"]),
            (State(point: 30, variant: "no pending entries", kept: [], tornCut: nil), []),
            (State(point: 41, variant: "keep-none", kept: [], tornCut: nil), ["the store opens as a new, empty one: its 300 initial objects are gone"]),
        ]
        let found = CrashStateReductionCheck.findings(states, points: points)
        #expect(found == [
            .init(problem: "writer #: # acknowledged before this point, # present", cause: "prefix at fsync /Library.sqlite-wal"),
            .init(problem: "writer #: matches no prefix of its history", cause: "torn at fsync /Library.sqlite-wal"),
            .init(problem: "the store opens as a new, empty one: its # initial objects are gone", cause: "keep-none at end of log"),
        ])
    }
}
