import ArgumentParser
import Explore
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat crash-states SCENARIO`: enumerates the disk states a crash could leave at the run's persistence
/// points and checks each after SQLite recovery.
struct CrashStatesCommand: ParsableCommand, RunsManyAtATime, RunsInShards {
    static let configuration = CommandConfiguration(
        commandName: "crash-states",
        abstract: "Record one run on FaultFS, then check every crash state its op log allows (CrashMonkey/ALICE style).",
        discussion: """
            Exit 0 when every state recovered to a valid prefix with all acknowledged transactions, 1 otherwise. With \
            --compare-reductions: exit 0 when the reductions found what the full enumeration found, 1 when not, 3 when \
            the scenario is not a FaultFS drill (nothing enumerated).
            """)

    @Argument(help: "The scenario to record (its crash, if any, is left out: the states are enumerated instead).") var scenario: String
    @Option(help: "Most persistence points to check (chosen by the seed when there are more).") var maxPoints: Int = 40
    @Option(help: "Seed for choosing points.") var seed: UInt64 = 1
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Scratch directory.") var scratch: String?
    @Option(help: ArgumentHelp("Units of points checked at a time: a number, or `cores` (the default: the enumeration works on one recording and does not depend on the machine's pace). crash-states.json is the same at any value.", valueName: "n"))
    var jobs: String = "cores"
    @Option(help: ArgumentHelp("Check only the K-th of N slices of the points' units (every N-th); give every shard the same --recording, then `lifeboat report merge` the N folders.", valueName: "K/N"))
    var shard: String?
    @Option(help: "Keep the recorded run in this folder, or enumerate the one it holds (so that shards enumerate one run).")
    var recording: String?
    @Flag(help: "Examine every state afresh instead of once per distinct recovered state (slower; the verdicts are the same).")
    var examineAll = false
    @Flag(help: "Enumerate the recorded run twice, with every reduction and with none (every state examined afresh), and compare their findings and every state's verdict (issue 29; scripts/reductions-check.sh).")
    var compareReductions = false

    func validate() throws {
        guard (1...100_000).contains(maxPoints) else { throw ValidationError("--max-points must be between 1 and 100000") }
        if compareReductions, shard != nil || recording != nil {
            throw ValidationError("--compare-reductions records and enumerates one run itself: leave out --shard and --recording")
        }
        if shard != nil, recording == nil {
            throw ValidationError("--shard needs --recording DIR: every shard must enumerate the same recorded run (two runs leave different op logs)")
        }
        if compareReductions, examineAll {
            throw ValidationError("--compare-reductions already runs the enumeration both ways: leave out --examine-all")
        }
    }

    func run() throws {
        let file = URL(cliPath: scenario)
        let parsed = try ScenarioCommandSupport.load(file)
        var settings = ScenarioRunner.Settings.from(reports: URL(cliPath: reports), scratch: scratch.map { URL(cliPath: $0) })
        settings.progress = nil
        if compareReductions { return try runComparison(parsed, file: file, settings: settings) }
        let loop = RunLoop(jobs: try jobCount(), shard: try shardValue())
        let progress = Progress(total: nil, label: "points")
        let kept: CrashStateRun.Recording
        if let recording {
            kept = try CrashStateRun.recording(kept: URL(cliPath: recording), scenario: parsed, file: file.path, settings: settings)
        } else {
            kept = try CrashStateRun.record(parsed, file: file.path, settings: settings)
        }
        defer { kept.remove() }
        var rows = try kept.enumerator.enumerate(scratch: kept.states, maxPoints: maxPoints, seed: seed, reuse: !examineAll, loop: loop) { line in
            progress.update(line)
        }
        progress.finish()
        rows.run = kept.runDirectory.url.path
        let summary = try rows.summary()
        // A shard's counts are a part: the run's report counts the states once the shards are merged.
        if loop.shard == nil { _ = try kept.reportStates(summary) }
        let directory = try RunDirectory.create(root: URL(cliPath: reports), prefix: "crash-states-")
        try rows.write(summary, to: directory.url)
        if let shard = loop.shard {
            print("shard \(shard) of \(rows.plan.cases.count) unit(s) of up to \(CrashStateEnumerator.pointsPerUnit) points: \(rows.units.count) here")
        }
        print("persistence points: \(summary.persistencePoints), checked: \(summary.pointsChecked) (the end of the log included); states checked: \(summary.statesChecked) (\(summary.statesExamined) examined afresh; skipped: \(summary.statesSameOperations) built from the same operations as one examined, \(summary.statesSameContent) recovered to the same pages), failed: \(summary.statesFailed); \(String(format: "%.1f s, %.1f", summary.seconds, summary.statesPerSecond)) states/s at --jobs \(loop.jobs)")
        print(String(format: "time: %.1f s building states, %.1f s fingerprinting, %.1f s examining (%d examinations; summed over the units run at once); %.1f CPU s (%.1f states per CPU second)",
                     summary.secondsBuilding, summary.secondsFingerprinting, summary.secondsExamining, rows.timing.examinations, summary.cpuSeconds,
                     Double(summary.statesChecked) / max(summary.cpuSeconds, 0.001)))
        let short = summary.shortMain
        print("main file missing or shorter than one page beside a -wal with committed frames: \(short.states) state(s); opening a copy showed an empty database in \(short.openedEmpty), deleted the -wal in \(short.walDeleted); \(short.failed) lost an acknowledged commit")
        if let first = short.first { print("first such state: \(first)") }
        if let first = summary.failures.first {
            print("first failing state: barrier seq \(first.state.point), \(first.state.variant), kept \(first.state.kept.count) pending op(s): \(first.problems.joined(separator: "; "))")
        }
        print("report: \(directory.url.path)/crash-states.json")
        if summary.statesFailed > 0 { throw ExitCode(1) }
    }
}
