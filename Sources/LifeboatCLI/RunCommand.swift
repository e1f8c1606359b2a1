import ArgumentParser
import Foundation
import Reporting
import Runner
import Scenario
import Workload

/// `lifeboat run SCENARIO...`: runs drills and writes a report for each; exit 0 when every drill showed the
/// verdict it expects, 1 when one did not, 2 for a bad scenario file.
struct RunCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run scenario files: writers, scheduled backups and restores, faults; check every invariant.",
        discussion: "Exit 0 as expected, 1 a drill did not show what it expects, 2 bad input or environment, 3 (campaigns) incomplete: drills skipped without FUSE or not run within --time-budget.")

    @Argument(help: "Scenario files (YAML), or directories of them (files starting with _ are shared defaults, not drills).")
    var scenarios: [String] = ["Scenarios"]
    @Option(help: "Override the scenario's seed.") var seed: UInt64?
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Scratch directory for stores (a fresh one per run below it).") var scratch: String?
    @Flag(help: "Keep scratch stores for inspection.") var keep = false
    @Option(help: "Also write one JUnit XML file for all the scenarios run (for CI).") var junit: String?
    @Flag(help: "Print progress lines even when stdout is not a terminal.") var verbose = false
    // Campaigns (RunCommand+Campaign.swift): more than one scenario or seed writes one suite folder.
    @Option(help: "Run every scenario with each of these seeds: ranges and lists, e.g. 1-200 or 1-5,9,20-22.") var seeds: String?
    @Option(name: .customLong("repeat"), help: "Rerun a pair whose run did not show what it expects K more times; a verdict that changes is flaky.") var repeatFailing: Int = 0
    @Option(help: "Replay each run that violated an invariant N more times and show how often its finding came back (reproduced k/N); 0 replays nothing.")
    var reproduce: Int = 0
    @Option(help: "Run only the K-th of N deterministic slices of the (scenario, seed) pairs, e.g. 2/3 (merge with `lifeboat report merge`).") var shard: String?
    @Option(help: ArgumentHelp("Runs at a time: a number, or `cores`. The suite and the verdicts are the runs' own, in the same order at any value; runs whose verdict depends on the machine's pace may see a busier machine.", valueName: "n"))
    var jobs: String = "1"
    @Option(help: "Start no new run once this much time is spent (10m, 90s, 1h30m); what was not run is listed.") var timeBudget: String?
    @Flag(help: "Exit 2 instead of skipping the drills that need FaultFS when FUSE is unavailable.") var requireFuse = false
    @Option(help: "Also write the real-bug catalog generated from this campaign (scenarios of one folder with a _catalog.yaml, e.g. Scenarios/real-bugs) to this Markdown file.")
    var catalog: String?
    @Flag(help: "Only read and check the scenario files (exit 0 when all are valid, 2 at the first bad one); run nothing.")
    var dryRun = false
    @OptionGroup var ci: CIOutputOptions

    func validate() throws { try validateCampaignOptions() }

    func run() throws {
        let files = try Self.expand(scenarios)
        var parsed: [(URL, Scenario)] = []
        for file in files {
            var scenario = try ScenarioCommandSupport.load(file)
            if let seed { scenario.seed = seed }
            parsed.append((file, scenario))
        }
        if dryRun {
            for (file, scenario) in parsed { print("\(file.path): \(scenario.name) is valid") }
            return
        }
        if try runAsCampaign(parsed) { return }
        let showProgress = verbose || isatty(STDOUT_FILENO) != 0
        var settings = ScenarioCommandSupport.settings(reports: reports, scratch: scratch)
        settings.keepScratch = keep
        if showProgress {
            settings.progress = { @Sendable (line: String) in print("  " + line) }
        }
        Interruption.install()
        var allMet = true
        var environmentErrors: [String] = []
        var results: [RunResult] = []
        var ciRuns: [CIOutput.ScenarioRun] = []
        for (file, scenario) in parsed {
            print("== \(scenario.name) (\(file.lastPathComponent), seed \(scenario.seed), expect \(scenario.expect))")
            let (result, directory) = try ScenarioCommandSupport.runOnce(scenario, file: file, settings: settings)
            results.append(result)
            ciRuns.append(CIOutput.ScenarioRun(result: result, scenario: scenario, file: file, directory: directory.url))
            if Interruption.requested {
                // The JUnit file still gets written, with the cut-short run as an error, so CI shows it red.
                if let junit { try Data(JUnitReport.render(results).utf8).write(to: URL(cliPath: junit)) }
                try ScenarioCommandSupport.stopIfInterrupted(directory)
            }
            Self.printRun(result, directory: directory)
            if let reason = result.environmentError {
                environmentErrors.append("\(scenario.name): \(reason)")
                continue
            }
            allMet = allMet && result.expectationMet
        }
        if let junit {
            try Data(JUnitReport.render(results).utf8).write(to: URL(cliPath: junit))
        }
        if results.count > 1 {
            print("\(results.filter(\.expectationMet).count) of \(results.count) drills as expected; reports/latest is the last")
        }
        try CIOutput.emit(CIOutput.findings(runs: ciRuns, workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)),
                          verdicts: CIOutput.verdicts(runs: ciRuns),
                          context: .init(command: commandLine, category: "lifeboat-run", reports: URL(cliPath: reports)), options: ci)
        if !allMet { throw ExitCode(1) }
        // A program that could not start is the environment's fault: nothing was judged (exit 2).
        if let first = environmentErrors.first { throw CLIFailure.badInput("not run: environment error: \(first) (\(Doctor.hint))") }
    }

    /// The command as typed, for CI output (SARIF's invocation, the step summary's title).
    var commandLine: String {
        "lifeboat run \(scenarios.joined(separator: " "))" + (seed.map { " --seed \($0)" } ?? "") + (seeds.map { " --seeds \($0)" } ?? "")
            + (shard.map { " --shard \($0)" } ?? "")
    }

    /// Files as given; directories expand to their *.yaml files (not descending into subfolders).
    static func expand(_ paths: [String]) throws -> [URL] {
        var files: [URL] = []
        for path in paths {
            let url = URL(cliPath: path)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
                throw CLIFailure.badInput("\(path): no such scenario file or directory")
            }
            if isDirectory.boolValue {
                let names = try FileManager.default.contentsOfDirectory(atPath: url.path).filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.sorted()
                files += names.map { url.appendingPathComponent($0) }
            } else {
                files.append(url)
            }
        }
        guard !files.isEmpty else { throw CLIFailure.badInput("no scenario files in \(paths.joined(separator: " "))") }
        return files
    }
}

/// `lifeboat writer --config FILE`: one writer process of a run (started by the runner, not by hand).
struct WriterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "writer", abstract: "Run one writer process (used by `lifeboat run`).",
                                                    shouldDisplay: false)
    @Option(help: "The writer's configuration (JSON written by the runner).") var config: String

    func run() throws {
        let configuration = try ChildConfig.read(Writer.Configuration.self, from: config, what: "writer")
        let committed = try Writer(configuration).run()
        print("writer \(configuration.index): \(committed) committed")
    }
}
