import FaultVocabulary
import Foundation
import LifeboatTestSupport
import LifeboatCLI
import Runner
import Scenario
import Testing
@testable import Explore

/// `try --deep` past a restore's swap (issue 39, point 3), on the deep search's own restore base (the app killed
/// with its -wal in place, the restore, the app relaunched on the restored store and committing) and its probe,
/// configured as `DeepSearch.run` configures its walks, but only over each walk's points after the swap: a restore
/// that ignores a failed removal of the old -wal is caught at that unlink, the tutorial's correct restore holds at
/// every such point. (The whole search is `TryDeepTests`; docs/performance.md times it.)
@Suite(.serialized, .ownThread) struct DeepAfterSwapTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Deep")

    /// The restore target's probe, its walks marked after the swap, and the search.
    static func restorePlan(_ restore: String, scratch: Scratch) throws -> (search: DeepSearch, target: DeepSearch.Target, file: String,
                                                                            walks: [DeepSearch.Walk], swap: DeepSearch.AfterSwap, settings: ScenarioRunner.Settings) {
        let backup = try TryCommandTests.write(scratch, "backup.sh", TryCommandTests.correctBackup)
        let program = TryProgram.Program(backup: "sh \(backup)", restore: restore, store: nil)
        let recipe = try TryProgram.recipe(for: program, at: scratch.path("scenarios"), workingDirectory: scratch.url, only: ["idle"]).recipe
        let situation = try #require(recipe.situations.first)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let search = DeepSearch(situation: situation.scenario, file: situation.file.path, directory: scratch.path("deep"), settings: settings)
        let target = try #require(search.targets.first { $0.program == "restore" })
        #expect(target.base.writers.afterRestore == "continue" && target.base.writers.acrossRestore == "stop" && target.base.scheduler == "turns")
        let (probe, calls, sequence) = try search.probe(target)
        #expect(probe.verdicts.filter { $0.status == .violated }.isEmpty || restore.contains("ignores"),
                "the probe holds: \(probe.verdicts.filter { $0.status == .violated }.map(\.summary))")
        // The app came back after the restore: a second round's writer committed on the restored store.
        #expect(probe.writers.contains { $0.writer > 100_000 && $0.committed > 0 }, "\(probe.writers)")
        var walks = DeepSearch.plan(target.program, calls: calls, sequence: sequence)
        let swap = try #require(DeepSearch.markAfterSwap(&walks, calls: sequence, storeGlob: target.storeGlob), "no swap in \(sequence ?? [])")
        return (search, target, situation.file.path, walks, swap, settings)
    }

    /// One walk over its points after the swap only.
    static func walkAfterSwap(_ walk: DeepSearch.Walk, _ plan: (search: DeepSearch, target: DeepSearch.Target, file: String,
                                                                walks: [DeepSearch.Walk], swap: DeepSearch.AfterSwap, settings: ScenarioRunner.Settings),
                              folder: URL) throws -> FaultWalk.State {
        var walk = walk
        walk.only = walk.afterSwap
        walk.count = walk.afterSwap?.count ?? 0
        let config = DeepSearch.config(of: walk, file: plan.file, actor: plan.target.actor)
        return try FaultWalk(base: plan.target.base, config: config, directory: folder, settings: plan.settings).run()
    }

    @Test func aRestoreThatIgnoresAFailedRemovalOfTheOldWalIsCaughtAtThatUnlink() throws {
        let scratch = try Scratch("deep-after-swap-ignores")
        let plan = try Self.restorePlan("sh \(Self.fixtures.appendingPathComponent("restore-ignores-wal-removal-error.sh").path)", scratch: scratch)
        #expect(plan.swap.swap == "rename /Library.sqlite.restoring -> /Library.sqlite", "\(plan.swap)")
        #expect((plan.swap.calls["unlink"] ?? 0) >= 2 && (plan.swap.calls["fsyncdir"] ?? 0) >= 1, "its removals and its last folder fsync: \(plan.swap.calls)")
        let walk = try #require(plan.walks.first { $0.ops == [.unlink, .rmdir] && $0.action == .errno(.EIO) })
        #expect(walk.afterSwap == Array(1...walk.count), "every unlink comes after the rename: \(walk.afterSwap ?? [])")
        let state = try Self.walkAfterSwap(walk, plan, folder: scratch.path("walk"))
        let row = try #require(state.firstFailing, "\(state.rows.map { "N=\($0.n) \($0.hit?.summary ?? ""): \($0.outcome) \($0.violated) \($0.errors)" })")
        #expect(row.hit?.op == "unlink" && row.hit?.path == "/Library.sqlite-wal", "\(String(describing: row.hit))")
        #expect(row.hit?.summary.contains("restore-1") == true, "the finding names the program's call: \(row.hit?.summary ?? "")")
        // The app's next open replays the old -wal onto the restored database: it is not the backup.
        #expect(row.violated.contains("restore-equals-backup"), "\(row.violated) \(row.evidence)")
        #expect(row.repro.map { FileManager.default.fileExists(atPath: $0) } == true)
    }

    @Test func theTutorialsCorrectRestoreHoldsAtEveryPointAfterItsSwap() throws {
        let scratch = try Scratch("deep-after-swap-tutorial")
        let restore = try TryCommandTests.write(scratch, "restore.sh", TryCommandTests.correctRestore)
        let plan = try Self.restorePlan("sh \(restore)", scratch: scratch)
        // sqlite3's .restore writes the backup into the live store through its -wal; the swap is the last write
        // into the database (the checkpoint), then come the -wal's and -shm's removal and the closes.
        #expect(plan.swap.swap == "write /Library.sqlite" || plan.swap.swap.hasPrefix("write /Library.sqlite "), "\(plan.swap)")
        #expect(plan.swap.planned > 0)
        var run = 0
        for walk in plan.walks where !(walk.afterSwap ?? []).isEmpty && !walk.ops.isEmpty {
            let state = try Self.walkAfterSwap(walk, plan, folder: scratch.path("walk-\(walk.folder)"))
            #expect(state.rows.allSatisfy { $0.outcome == "held" },
                    "\(walk.label): \(state.rows.filter { $0.outcome != "held" }.map { "N=\($0.n) \($0.hit?.summary ?? ""): \($0.outcome) \($0.violated) \($0.evidence) \($0.errors)" })")
            run += state.rows.count
        }
        for mode in [CrashMode.keepNone, .reorder, .torn(fill: .zeros)] {
            let row = try plan.search.crashAfterSuccess(plan.target, mode: mode, folder: scratch.path("crash-\(mode)"))
            #expect(row.outcome == "held", "crash \(mode) after success: \(row.violated) \(row.evidence)")
            run += 1
        }
        #expect(run == plan.swap.planned, "every point after the swap ran: \(run) of \(plan.swap.planned)")
    }
}
