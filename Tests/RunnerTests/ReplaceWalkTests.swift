import Explore
import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// The replace walk once reported broken (docs/trust.md, "The replace fault walk that could not be
/// reproduced"): EIO on each `-wal` write of one writer (three inserts, turns) over a `replace` backup held on the
/// volume gave a backup with a missing index entry at N=1 and `Z_MAX` below a `Z_PK` at N=9. It holds at every N
/// through N=10 here, with checks that read private copies; `scripts/` is not needed to see it (about 15 s).
@Suite(.serialized, .ownThread) struct ReplaceWalkTests {
    @Test func replaceUnderEIOOnTheWriterWALHoldsThroughTheReportedNs() throws {
        let scratch = try Scratch("walk-replace")
        let file = scratch.path("walk-replace.yaml")
        try """
        name: walk-replace
        seed: 1
        store: {objects: 12, blob_fraction: 0, journal_mode: wal}
        writers: {count: 1, transactions: 3, rate: 0, blob_fraction: 0, checkpoint: none, mix: {insert: 100, update: 0, delete: 0, link: 0}}
        schedule:
          - backup: replace
            after_commits: 1
        faults: {mount: true, backups_on_volume: true}
        invariants: [integrity, no-duplicates, wal-content-carried, snapshot-consistent, backup-completes]
        scheduler: turns
        """.write(to: file, atomically: true, encoding: .utf8)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let config = FaultWalk.Config(scenarioFile: file.path, ops: [.write], path: "*.sqlite-wal", action: .errno(.EIO), max: 10)
        let state = try FaultWalk(base: try ScenarioParser.parse(file: file), config: config, directory: scratch.path("walk"),
                                  settings: settings).run()
        #expect(state.rows.map(\.n) == Array(1...10))
        #expect(state.rows.allSatisfy { $0.fired })
        #expect(state.rows.allSatisfy { $0.outcome == "held" }, "\(state.rows.filter { $0.outcome != "held" }.map { "N=\($0.n): \($0.violated) \($0.evidence) \($0.errors)" })")
    }
}
