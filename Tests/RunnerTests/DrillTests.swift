import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// Every drill that ships in Scenarios/ still shows the verdict it expects: a pitfall drill that stops
/// demonstrating its pitfall fails here, and so does a correct strategy that starts failing.
@Suite(.ownThread) struct DrillTests {
    static let scenarios = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")

    static var drills: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: scenarios.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.sorted()
    }

    static func run(_ scenario: Scenario, file: String, scratch: Scratch) throws -> (RunResult, RunDirectory) {
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        return try ScenarioRunner(scenario: scenario, file: file, settings: settings).run()
    }

    @Test(arguments: drills)
    func shippedDrillShowsItsExpectedVerdict(_ name: String) throws {
        let scratch = try Scratch("drill")
        let file = Self.scenarios.appendingPathComponent(name)
        let scenario = try ScenarioParser.parse(file: file)
        let (result, _) = try Self.run(scenario, file: file.path, scratch: scratch)
        let summary = result.verdicts.filter { $0.status == .violated }.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" }
        #expect(result.expectationMet, "\(name) expected \(result.expectation); violated: \(summary); errors: \(result.errors)")
        #expect(result.errors.isEmpty, "\(result.errors)")
    }

    @Test func runWritesEveryReportAndAReplayableScenario() throws {
        let scratch = try Scratch("reports")
        let file = Self.scenarios.appendingPathComponent("migrate-duplicates.yaml")
        let (result, directory) = try Self.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch)
        for name in ["report.json", "report.md", "report.html", "junit.xml", "run.log", "repro.yaml"] {
            #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent(name).path), "\(name)")
        }
        let latest = scratch.path("reports/latest")
        #expect(try FileManager.default.destinationOfSymbolicLink(atPath: latest.path) == directory.id)
        let decoded = try JSONReport.decode(try Data(contentsOf: directory.url.appendingPathComponent("report.json")))
        #expect(decoded.schema == RunResult.schemaVersion && decoded.runID == result.runID)
        // The replay gives the same verdicts.
        let repro = try ScenarioParser.parse(file: directory.url.appendingPathComponent("repro.yaml"))
        let (again, _) = try Self.run(repro, file: "repro.yaml", scratch: scratch)
        #expect(again.verdicts.map(\.status) == result.verdicts.map(\.status))
        #expect(again.expectationMet == result.expectationMet)
    }

    @Test func sameSeedSameVerdictOverSeeds() throws {
        let scratch = try Scratch("seeds")
        var scenario = try ScenarioParser.parse(file: Self.scenarios.appendingPathComponent("smoke.yaml"))
        scenario.writers.transactions = 40
        scenario.schedule[0].afterCommits = 20
        scenario.schedule[1].afterCommits = 50
        for seed in 1...4 as ClosedRange<UInt64> {
            scenario.seed = seed
            let (first, _) = try Self.run(scenario, file: "smoke", scratch: scratch)
            let (second, _) = try Self.run(scenario, file: "smoke", scratch: scratch)
            #expect(first.expectationMet && second.expectationMet, "seed \(seed): \(first.verdicts.filter { $0.status == .violated })")
            #expect(first.verdicts.map(\.status) == second.verdicts.map(\.status), "seed \(seed)")
        }
    }
}

/// No false alarms: the correct strategies under crash faults hold every invariant, seed after seed (a CI-sized
/// subset here; `scripts/trust.sh 50` runs fifty).
@Suite(.serialized, .ownThread) struct TrustTests {
    @Test func correctStrategiesUnderCrashFaultsRaiseNoAlarm() throws {
        let scratch = try Scratch("trust")
        var scenario = try ScenarioParser.parse(file: DrillTests.scenarios.appendingPathComponent("trust-crash.yaml"))
        scenario.writers.transactions = 80
        scenario.schedule[1].afterCommits = 80
        scenario.faults.crash?.afterCommits = 130
        for seed in 1...6 as ClosedRange<UInt64> {
            scenario.seed = seed
            let (result, _) = try DrillTests.run(scenario, file: "trust-crash", scratch: scratch)
            let violated = result.verdicts.filter { $0.status == .violated }
            #expect(violated.isEmpty, "seed \(seed): \(violated.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" })")
            #expect(result.errors.isEmpty, "seed \(seed): \(result.errors)")
        }
    }
}
