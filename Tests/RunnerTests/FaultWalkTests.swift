import Explore
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The fault walk on a tiny store under the turns scheduler: a correct strategy holds at every N; a backup
/// script that never syncs fails from the first N after it reported success, and that N's repro replays.
@Suite(.serialized, .ownThread) struct FaultWalkTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    func settings(_ scratch: Scratch) -> ScenarioRunner.Settings {
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        return settings
    }

    /// One writer, two inserts, a backup-api backup after the first: about thirty WAL writes.
    func correctScenario(_ scratch: Scratch) throws -> URL {
        let file = scratch.path("walk-backup-api.yaml")
        try """
        name: walk-backup-api
        seed: 3
        store: {objects: 12, blob_fraction: 0, journal_mode: wal}
        writers: {count: 1, transactions: 2, rate: 0, blob_fraction: 0, checkpoint: none, mix: {insert: 100, update: 0, delete: 0, link: 0}}
        schedule:
          - backup: backup-api
            after_commits: 1
        faults: {mount: true}
        invariants: [integrity, no-duplicates, wal-content-carried, snapshot-consistent, backup-completes]
        scheduler: turns
        """.write(to: file, atomically: true, encoding: .utf8)
        return file
    }

    @Test func walkOverTheWALWritesOfACorrectStrategyHoldsAtEveryN() throws {
        let scratch = try Scratch("walk-correct")
        let file = try correctScenario(scratch)
        let config = FaultWalk.Config(scenarioFile: file.path, ops: [.write], path: "*.sqlite-wal", action: .errno(.EIO))
        let state = try FaultWalk(base: try ScenarioParser.parse(file: file), config: config, directory: scratch.path("walk"),
                                  settings: settings(scratch)).run()
        let last = try #require(state.rows.last)
        #expect(!last.fired && state.finished?.contains("no fault fired") == true)
        #expect(state.rows.count >= 10, "only \(state.rows.count) WAL writes walked")
        #expect(state.rows.map(\.n) == Array(1...state.rows.count))
        #expect(state.rows.allSatisfy { $0.outcome == "held" }, "\(state.rows.filter { $0.outcome != "held" }.map { "N=\($0.n): \($0.violated) \($0.evidence) \($0.errors)" })")
        // Every fired N names a WAL write of the writer, at an offset.
        for row in state.rows.dropLast() {
            #expect(row.hit?.op == "write" && row.hit?.path.hasSuffix(".sqlite-wal") == true && row.hit?.actor == "writer-1" && row.hit?.offset != nil)
        }
        // Coverage over the walk: every run's WAL writes, one fault fired per fired N.
        let wal = try #require(state.coverage?.rows.first { $0.op == "write" && $0.fileClass == "-wal" })
        #expect(wal.fired == state.rows.count - 1 && state.coverage?.runs == state.rows.count)
        let markdown = try String(contentsOf: scratch.path("walk/walk.md"), encoding: .utf8)
        #expect(markdown.contains("first failing N: none") && markdown.contains("## Fault coverage"))
    }

    @Test func crashWalkOverABackupThatNeverSyncsFindsTheFirstFailingNAndItReplays() throws {
        let scratch = try Scratch("walk-bug")
        let file = Self.root.appendingPathComponent("Scenarios/bugs/copy-no-sync.yaml")
        let config = FaultWalk.Config(scenarioFile: file.path, ops: [.write], path: "*.sqlite-wal", action: .crash, stopAtFailure: true)
        let state = try FaultWalk(base: try ScenarioParser.parse(file: file), config: config, directory: scratch.path("walk"),
                                  settings: settings(scratch)).run()
        let first = try #require(state.firstFailing, "no failing N in \(state.rows.count) runs")
        #expect(first.violated.contains("backup-durable"))
        // Before the backup reported success a crash costs nothing; the first failing N comes after it.
        #expect(first.n > 1 && state.rows.filter { $0.n < first.n }.allSatisfy { $0.outcome == "held" })
        #expect(first.hit?.actor == "writer-1")
        let repro = try #require(first.repro)
        let scenario = try ScenarioParser.parse(file: URL(fileURLWithPath: repro))
        #expect(scenario.expect == .violation("backup-durable") && scenario.faults.rules.last?.nth == first.n && scenario.faults.crash == nil)
        let (result, _) = try ScenarioRunner(scenario: scenario, file: repro, settings: settings(scratch)).run()
        #expect(result.expectationMet, "the repro of N=\(first.n) did not replay: \(result.verdicts.filter { $0.status == .violated }.map(\.invariant))")
        #expect(result.coverage?.crashPointsExplored == 1)
    }

    @Test func aShardTakesEveryMthNAndARerunResumes() throws {
        let scratch = try Scratch("walk-shard")
        let file = try correctScenario(scratch)
        let config = FaultWalk.Config(scenarioFile: file.path, ops: [.write], path: "*.sqlite-wal", action: .errno(.EIO), max: 6, shard: 2, shards: 2)
        let base = try ScenarioParser.parse(file: file)
        let walk = FaultWalk(base: base, config: config, directory: scratch.path("walk"), settings: settings(scratch))
        let state = try walk.run()
        #expect(state.rows.map(\.n) == [2, 4, 6] && state.finished == "reached --max 6")
        // As if interrupted after N=4: the rerun runs N=6 only.
        var cut = state
        cut.rows.removeLast()
        cut.finished = nil
        try JSONEncoder().encode(cut).write(to: scratch.path("walk/walk.json"))
        let runsBefore = try FileManager.default.contentsOfDirectory(atPath: scratch.path("walk/runs").path).filter { !$0.hasPrefix("latest") }.count
        let resumed = try walk.run()
        let runsAfter = try FileManager.default.contentsOfDirectory(atPath: scratch.path("walk/runs").path).filter { !$0.hasPrefix("latest") }.count
        #expect(resumed.rows.map(\.n) == [2, 4, 6] && runsAfter == runsBefore + 1)
        // Another walk's settings in the same directory are refused.
        var other = config
        other.action = .errno(.ENOSPC)
        #expect(throws: FaultWalk.WalkError.self) { try FaultWalk(base: base, config: other, directory: scratch.path("walk"), settings: settings(scratch)).run() }
    }

    /// Between a crash rule's freeze and the crash, writers get EIO where a power cut would leave them unanswered:
    /// those are not failures the store's users saw, so every invariant (live-store-unaffected too) holds.
    @Test func aCrashWalkHoldsEveryInvariantOnACorrectStrategy() throws {
        let scratch = try Scratch("walk-crash-all")
        let file = try correctScenario(scratch)
        var base = try ScenarioParser.parse(file: file)
        base.invariants = []
        let config = FaultWalk.Config(scenarioFile: file.path, ops: [.write], path: "*.sqlite-wal", action: .crash, from: 4, max: 5)
        let state = try FaultWalk(base: base, config: config, directory: scratch.path("walk"), settings: settings(scratch)).run()
        #expect(state.rows.map(\.n) == [4, 5])
        #expect(state.rows.allSatisfy { $0.fired && $0.outcome == "held" }, "\(state.rows.map { "N=\($0.n): \($0.violated) \($0.evidence)" })")
    }
}
