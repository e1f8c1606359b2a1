import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing
@testable import Explore

/// The smallest repro (issue 39, point 4): a finding of the deep search on `Fixtures/Deep/backup-rename-no-folder-sync.sh`
/// (a crash right after the rename it never makes durable with a folder fsync), found as the search finds it (the
/// probe, then the walk of the persistence points to its first failing N), is shrunk with a small budget: the
/// repro is smaller than the search's, says what was shrunk, and `lifeboat replay --times 3` gives the same
/// invariant 3 of 3 times with the fault on the same kind of call on the same class of file.
@Suite(.serialized, .ownThread) struct TryDeepShrinkTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Deep")

    /// The deep search of the backup `script` (a fixture) in the idle situation, in a scratch of its own, and its
    /// backup target.
    static func search(_ script: String, scratch name: String) throws
        -> (Scratch, (name: String, file: URL, scenario: Scenario, measured: Bool), ScenarioRunner.Settings, DeepSearch, DeepSearch.Target) {
        let scratch = try Scratch(name)
        let path = Self.fixtures.appendingPathComponent(script).path
        let recipe = try TryProgram.recipe(for: .init(backup: "sh \(path)", restore: nil, store: nil), at: scratch.path("scenarios"),
                                           workingDirectory: scratch.url, only: ["idle"]).recipe
        let situation = try #require(recipe.situations.first)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let search = DeepSearch(situation: situation.scenario, file: situation.file.path, directory: scratch.path("deep"), settings: settings)
        let target = try #require(search.targets.first { $0.program == "backup" })
        return (scratch, situation, settings, search, target)
    }

    @Test func aDeepFindingsReproIsShrunkAndReplaysTheSameThreeOfThree() async throws {
        let (scratch, situation, settings, search, target) = try Self.search("backup-rename-no-folder-sync.sh", scratch: "deep-shrink")
        let (_, calls, _) = try search.probe(target)
        let walk = try #require(DeepSearch.plan("backup", calls: calls).first { $0.action == .crash(.keepNone) && !$0.ops.isEmpty })
        let folder = scratch.path("deep").appendingPathComponent(walk.folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let state = try FaultWalk(base: target.base, config: DeepSearch.config(of: walk, file: situation.file.path, actor: target.actor),
                                  directory: folder, settings: settings).run()
        let row = try #require(state.firstFailing, "the walk finds the rename: \(state.rows.map { "\($0.n) \($0.outcome)" })")
        let hit = try #require(row.hit)
        var finding = DeepSearch.Finding(walk: walk.label, operation: hit.summary, row: row)
        let repro = try #require(finding.repro)
        let before = try ScenarioParser.parse(file: URL(fileURLWithPath: repro))

        try search.shrink(&finding, target: target, walk: walk, hit: hit, budget: 8, progress: { _ in })

        let shrink = try #require(finding.shrink)
        #expect(!shrink.steps.isEmpty, "\(DeepSearch.shrinkLine(shrink) ?? "")")
        #expect(shrink.runs <= 8 && shrink.reproduced == 3, "\(DeepSearch.shrinkLine(shrink) ?? "")")
        let after = try ScenarioParser.parse(file: URL(fileURLWithPath: repro))
        #expect(after.schedule.count < before.schedule.count || after.writers.transactions < before.writers.transactions
                || after.store.objects < before.store.objects || (after.faults.rules.last?.nth ?? 0) < (before.faults.rules.last?.nth ?? 0),
                "smaller than the search's: \(shrink.original) -> \(shrink.shrunk)")
        #expect(shrink.original == Shrinker.size(before, rule: before.faults.rules.count - 1) && shrink.shrunk != shrink.original)
        // It says what was shrunk, in the file's head and its description, and the search's own repro stays beside it.
        let text = try String(contentsOfFile: repro, encoding: .utf8)
        #expect(text.contains("# Shrunk from \(shrink.original):") && shrink.steps.allSatisfy { text.contains("#   \($0)\n") }, "\(text)")
        #expect(after.description.contains("Shrunk from \(shrink.original) to \(shrink.shrunk)"))
        #expect(after.expect == .violation(try #require(finding.violated.first)))
        #expect(FileManager.default.fileExists(atPath: try #require(shrink.originalRepro)))
        let line = try #require(DeepSearch.shrinkLine(shrink))
        #expect(line.contains(shrink.steps[0]) && line.contains("replayed the same 3 of 3"), "\(line)")

        // `lifeboat replay --times 3`: the same invariant each time, the fault on the same kind of call and file.
        let replays = scratch.path("replays")
        let code = await LifeboatMain.run(["replay", repro, "--times", "3", "--reports", replays.path, "--scratch", scratch.path("scratch").path])
        #expect(code == 0)
        // Each replay's run folder (`latest` is a link to the last of them).
        let runs = try FileManager.default.contentsOfDirectory(at: replays, includingPropertiesForKeys: nil)
            .filter { $0.lastPathComponent != "latest" && FileManager.default.fileExists(atPath: $0.appendingPathComponent("report.json").path) }
        #expect(runs.count == 3)
        for run in runs {
            let result = try JSONReport.decode(Data(contentsOf: run.appendingPathComponent("report.json")))
            let replayed = try #require(result.faults.forRule(after.faults.rules.count - 1)?.hit, "\(run.path)")
            #expect(replayed.op == hit.op && DeepSearch.fileClass(of: replayed) == DeepSearch.fileClass(of: hit), "\(replayed.summary) vs \(hit.summary)")
        }
    }

    /// `Fixtures/Deep/backup-logs-then-copies-ignoring-errors.sh` writes a log line per block of the database, then
    /// the blocks, and carries on past an EIO: the grouped write walk finds it at a write of the copy, an N past
    /// every log write. Another store (fewer transactions, fewer objects) has another number of blocks, so the
    /// copy's writes come at other Ns: the fault is aimed again at the same call, or moved to the earliest write
    /// of the copy, and the shrunk repro still replays 3 of 3 with its fault at a write of the database.
    @Test func anotherStoreMovesThePointWithTheCall() async throws {
        let (scratch, situation, settings, search, target) = try Self.search("backup-logs-then-copies-ignoring-errors.sh", scratch: "deep-shrink-point")
        let (_, calls, sequence) = try search.probe(target)
        let walk = try #require(DeepSearch.plan("backup", calls: calls, sequence: sequence).first { $0.action == .errno(.EIO) && $0.ops.contains(.write) })
        let folder = scratch.path("deep").appendingPathComponent(walk.folder)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let state = try FaultWalk(base: target.base, config: DeepSearch.config(of: walk, file: situation.file.path, actor: target.actor),
                                  directory: folder, settings: settings).run()
        let row = try #require(state.firstFailing, "\(state.rows.map { "\($0.n) \($0.hit?.summary ?? "") \($0.outcome)" })")
        let hit = try #require(row.hit)
        #expect(row.n > 1 && DeepSearch.fileClass(of: hit) == .db, "past the log's writes, at the copy: \(hit.summary)")
        var finding = DeepSearch.Finding(walk: walk.label, operation: hit.summary, row: row)
        try search.shrink(&finding, target: target, walk: walk, hit: hit, budget: 12, progress: { _ in })

        let shrink = try #require(finding.shrink)
        let line = DeepSearch.shrinkLine(shrink) ?? ""
        #expect(shrink.reproduced == 3, "\(line)")
        #expect(shrink.steps.contains { $0.contains("store objects") } && shrink.steps.contains { $0.contains("point N ") },
                "fewer objects, and the point moved with the calls: \(line)")
        let after = try ScenarioParser.parse(file: URL(fileURLWithPath: try #require(finding.repro)))
        let n = try #require(after.faults.rules.last?.nth)
        #expect(n != row.n && shrink.call?.hasPrefix("write /backups/") == true && shrink.call?.contains("/Library.sqlite @") == true,
                "the same kind of call on the same class of file: \(line)")
        let code = await LifeboatMain.run(["replay", try #require(finding.repro), "--times", "3", "--reports", scratch.path("replays").path,
                                           "--scratch", scratch.path("scratch").path])
        #expect(code == 0)
    }
}
