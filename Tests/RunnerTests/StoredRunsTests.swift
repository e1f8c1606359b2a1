import Checks
import Foundation
import Reporting
import Scenario
import Testing

/// Runs stored by an older Lifeboat (Tests/Fixtures/StoredRuns, written by commit ffd097d, before typed schedule
/// steps) still mean what they meant: each `record.json` is judged again to the verdicts its `report.json` gave,
/// (an invariant added since is not exercised on it), and its `repro.yaml` (and the scenario file it ran) reads with today's parser into a scenario that today's
/// renderer writes back line for line, so every entry kind and every key of the old schedule survives.
@Suite struct StoredRunsTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/StoredRuns", isDirectory: true)
    static let runs = ["legacy-steps-local", "legacy-steps-cloud"]

    @Test(arguments: runs) func aStoredRecordIsJudgedToTheVerdictsItsRunReported(_ run: String) throws {
        let directory = Self.folder.appendingPathComponent(run)
        let record = try RecordFile.read(directory.appendingPathComponent(RecordFile.name))
        let stored = try JSONDecoder().decode(RunResult.self, from: Data(contentsOf: directory.appendingPathComponent("report.json")))
        let judged = RunResult.judged(record)
        // An invariant added since has no reading in an older record: it is not exercised, and every other one
        // gives the verdict the run gave.
        let known = Set(stored.verdicts.map(\.invariant))
        let added = judged.verdicts.filter { !known.contains($0.invariant) }
        #expect(added.allSatisfy { $0.status == .notApplicable }, "\(added)")
        let kept = judged.verdicts.filter { known.contains($0.invariant) }
        #expect(kept.map(\.invariant) == stored.verdicts.map(\.invariant))
        #expect(kept.map(\.status) == stored.verdicts.map(\.status))
        #expect(kept.contains { $0.status == .violated }, "the fixture shows a violation, so a verdict that flips is seen")
        #expect(judged.expectationMet && stored.expectationMet)
    }

    @Test(arguments: runs) func aStoredReproReadsAndRendersBackUnchanged(_ run: String) throws {
        let directory = Self.folder.appendingPathComponent(run)
        let repro = try String(contentsOf: directory.appendingPathComponent("repro.yaml"), encoding: .utf8)
        // The first line is the replay comment with the run's own path.
        let body = repro.split(separator: "\n", maxSplits: 1, omittingEmptySubsequences: false)[1]
        let fromRepro = try ScenarioParser.parse(yaml: String(body), file: "\(run)/repro.yaml")
        #expect(ScenarioYAML.render(fromRepro) == String(body))
        let fromScenario = try ScenarioParser.parse(file: directory.appendingPathComponent("scenario.yaml"))
        #expect(fromScenario == fromRepro)
        #expect(fromScenario.schedule.count >= 9)
    }
}
