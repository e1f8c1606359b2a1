@testable import Explore
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// Crash states through the one many-runs loop (`RunLoop`): one recorded run of a lying-fsync drill (failing and
/// passing states, both reductions at work) enumerated one unit at a time, two at a time, in units of other
/// sizes, and in two shards merged through `CrashStateRows.merge` (what `lifeboat report merge` runs), gives the
/// same crash-states.json apart from times, every state the same verdict in the same order, and the same counts
/// in the run's report.
@Suite(.serialized, .ownThread) struct CrashStateParallelTests {
    /// The summary as JSON with its times and durations zeroed (they are the only fields allowed to differ).
    func timeless(_ summary: CrashStateEnumerator.Summary) throws -> String {
        var summary = summary
        summary.seconds = 0
        summary.statesPerSecond = 0
        summary.cpuSeconds = 0
        summary.secondsBuilding = 0
        summary.secondsFingerprinting = 0
        summary.secondsExamining = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return String(decoding: try encoder.encode(summary), as: UTF8.self)
    }

    @Test func jobsAndMergedShardsGiveTheSameStatesAndVerdicts() throws {
        let scratch = try Scratch("states-parallel")
        var scenario = try ScenarioParser.parse(file: DrillTests.scenarios.appendingPathComponent("fsync-lies.yaml"))
        scenario.writers.transactions = 25
        scenario.schedule = []
        let settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        let recording = try CrashStateRun.record(scenario, file: "fsync-lies", settings: settings)
        defer { recording.remove() }
        let enumerator = recording.enumerator
        func enumerate(_ loop: Runner.RunLoop, unit: Int = 2) throws -> CrashStateRows {
            var rows = try enumerator.enumerate(scratch: recording.states, maxPoints: 12, seed: 5, loop: loop, pointsPerUnit: unit)
            rows.run = recording.runDirectory.url.path
            return rows
        }

        let one = try enumerate(Runner.RunLoop(jobs: 1))
        var oneVerdicts: [(CrashStateEnumerator.State, [String])] = []
        let oneSummary = try one.summary { oneVerdicts.append(($0, $1)) }
        #expect(one.units.count >= 4, "several units to share between workers: \(one.units.count)")
        #expect(oneSummary.statesFailed > 0 && oneSummary.statesFailed < oneSummary.statesChecked, "failing and passing states")
        #expect(oneSummary.statesSameOperations > 0 && oneSummary.statesSameContent > 0, "both reductions at work: \(oneSummary.statesSameOperations), \(oneSummary.statesSameContent)")
        let expected = try timeless(oneSummary)

        let two = try enumerate(Runner.RunLoop(jobs: 2))
        var twoVerdicts: [(CrashStateEnumerator.State, [String])] = []
        #expect(try timeless(two.summary { twoVerdicts.append(($0, $1)) }) == expected, "--jobs 2 as --jobs 1")
        #expect(twoVerdicts.count == oneVerdicts.count)
        for (a, b) in zip(twoVerdicts, oneVerdicts) {
            #expect(a.0 == b.0 && a.1 == b.1, "\(a.0.variant) at \(a.0.point)")
        }
        #expect(try timeless(enumerate(Runner.RunLoop(jobs: 2), unit: CrashStateEnumerator.pointsPerUnit).summary()) == expected,
                "units of another size")

        // Two shards, each written as crash-states does, merged as `lifeboat report merge` does.
        var folders: [URL] = []
        for index in 1...2 {
            let rows = try enumerate(Runner.RunLoop(jobs: 2, shard: Shard(index: index, count: 2)))
            #expect(!rows.units.isEmpty && rows.units.count < one.units.count)
            let folder = scratch.path("shard-\(index)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try rows.write(try rows.summary(), to: folder)
            folders.append(folder)
        }
        let out = scratch.path("merged")
        let merged = try CrashStateRows.merge(folders, into: out)
        let written = try JSONDecoder().decode(CrashStateEnumerator.Summary.self,
                                               from: Data(contentsOf: out.appendingPathComponent(CrashStateRows.summaryFile)))
        #expect(try timeless(written) == expected, "two shards merged as one enumeration")
        #expect(merged.rows.plan.shard == nil && merged.rows.plan.id == one.plan.id)
        let report = try #require(merged.run?.coverage)
        let unsharded = try #require(try recording.reportStates(oneSummary).coverage)
        #expect(report.crashStatesChecked == unsharded.crashStatesChecked && report.crashStatesFailed == unsharded.crashStatesFailed
                && report.crashStatesExamined == unsharded.crashStatesExamined)

        // One shard given twice is refused before anything is written.
        #expect(throws: ShardPlan.MergeError.self) { try CrashStateRows.merge([folders[0], folders[0]], into: scratch.path("twice")) }
        #expect(!FileManager.default.fileExists(atPath: scratch.path("twice").path))
    }
}
