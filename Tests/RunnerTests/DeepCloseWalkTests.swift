import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing
@testable import Explore

/// `try --deep`'s walk of EIO at each of the program's closes (issue 29), on the deep search's own backup base and
/// probe, configured as `DeepSearch.run` configures its fault walks: a program that ignores a failed close or stops on
/// it holds at every close, one that reacts by deleting the previous backup or changing the live store is caught.
/// Only this walk runs (the whole search is `TryDeepTests`), so each program costs its probe and its closes.
@Suite(.serialized, .ownThread) struct DeepCloseWalkTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Deep")

    /// The probe's count of the script's closes and the close walk's rows.
    static func walkCloses(_ script: String) throws -> (closes: Int, state: FaultWalk.State) {
        let scratch = try Scratch("deep-close")
        let program = TryProgram.Program(backup: "sh \(fixtures.appendingPathComponent(script).path)", restore: nil, store: nil)
        let recipe = try TryProgram.recipe(for: program, at: scratch.path("scenarios"), workingDirectory: scratch.url, only: ["idle"]).recipe
        let situation = try #require(recipe.situations.first)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let search = DeepSearch(situation: situation.scenario, file: situation.file.path, directory: scratch.path("deep"), settings: settings)
        let target = try #require(search.targets.first { $0.program == "backup" })
        let (_, calls, sequence) = try search.probe(target)
        let walk = try #require(DeepSearch.plan(target.program, calls: calls, sequence: sequence).first { $0.ops == [.flush] },
                                "the probe counted no close: \(calls)")
        #expect(walk.only == nil, "closes are each walked")
        let config = DeepSearch.config(of: walk, file: situation.file.path, actor: target.actor)
        let state = try FaultWalk(base: target.base, config: config, directory: scratch.path("walk"), settings: settings).run()
        return (walk.count, state)
    }

    @Test func aBackupThatIgnoresOrStopsOnAFailedCloseHoldsAtEveryClose() throws {
        let (closes, state) = try Self.walkCloses("backup-stops-on-close-error.sh")
        #expect(state.rows.count == closes && state.rows.allSatisfy(\.fired))
        #expect(state.rows.allSatisfy { $0.outcome == "held" },
                "\(state.rows.filter { $0.outcome != "held" }.map { "N=\($0.n) \($0.hit?.summary ?? ""): \($0.outcome) \($0.violated) \($0.evidence) \($0.errors)" })")
    }

    /// The previous backup deleted: `previous-backup-intact`; the live store's -wal emptied under the app: `integrity`
    /// of the live store. Each at the one close whose failure the script acts on, its manifest's (the last).
    @Test(arguments: [("backup-close-error-deletes-previous.sh", "previous-backup-intact"), ("backup-close-error-resets-live-wal.sh", "integrity")])
    func aBackupThatDamagesWhatItWasGivenOnAFailedCloseIsCaught(_ script: String, _ invariant: String) throws {
        let (closes, state) = try Self.walkCloses(script)
        let row = try #require(state.firstFailing, "\(state.rows.map { "N=\($0.n) \($0.hit?.summary ?? ""): \($0.outcome) \($0.violated) \($0.errors)" })")
        #expect(row.n == closes && row.violated.contains(invariant), "N=\(row.n) of \(closes): \(row.violated) \(row.evidence)")
        #expect(state.rows.filter { $0.n < row.n }.allSatisfy { $0.outcome == "held" }, "the closes the script does not act on hold")
        #expect(row.hit?.op == "flush" && row.hit?.path.hasSuffix("/manifest.txt") == true, "\(String(describing: row.hit))")
        #expect(row.repro != nil)
    }
}
