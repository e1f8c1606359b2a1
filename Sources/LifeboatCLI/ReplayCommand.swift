import ArgumentParser
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat replay repro.yaml`: runs a repro (what explore or any run writes) several times and says whether
/// each run showed the verdict it records; exit 0 only when every replay did.
struct ReplayCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a repro.yaml (scenario + seed) and check it reproduces its verdict every time.")

    @Argument(help: "The repro file (reports/<run-id>/repro.yaml) or any scenario file.") var repro: String
    @Option(help: "How many times to replay.") var times = 3
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Scratch directory for stores.") var scratch: String?

    func validate() throws {
        guard (1...1000).contains(times) else { throw ValidationError("--times must be between 1 and 1000") }
    }

    func run() throws {
        let file = URL(cliPath: repro)
        let scenario: Scenario
        do { scenario = try ScenarioParser.parse(file: file) } catch let error as ScenarioError {
            throw CLIFailure.badInput(error.description)
        } catch {
            throw CLIFailure.badInput("\(repro): \(error)")
        }
        var settings = ScenarioRunner.Settings.from(reports: URL(cliPath: reports), scratch: scratch.map { URL(cliPath: $0) })
        settings.makeVolume = StoreVolumes.make
        Interruption.install()
        print("replaying \(scenario.name) (seed \(scenario.seed), scheduler \(scenario.scheduler), expect \(scenario.expect)) \(times) time(s)")
        var reproduced = 0
        var seconds: [Double] = []
        for round in 1...times {
            let started = Date()
            let runner: ScenarioRunner
            do { runner = try ScenarioRunner(scenario: scenario, file: file.path, settings: settings) } catch { throw CLIFailure.badInput("\(error)") }
            let (result, directory) = try runner.run()
            if Interruption.requested { throw CLIFailure(code: 130, message: "interrupted; report of the partial run: \(directory.url.path)") }
            let elapsed = Date().timeIntervalSince(started)
            seconds.append(elapsed)
            if result.expectationMet { reproduced += 1 }
            let violated = result.verdicts.filter { $0.status == .violated }.map(\.invariant)
            print(String(format: "  %d: %@ in %.1f s (violated: %@) — %@/report.html", round,
                         TerminalStyle.outcome(result.expectationMet ? "reproduced" : "DID NOT REPRODUCE", good: result.expectationMet), elapsed,
                         violated.isEmpty ? "none" : violated.joined(separator: ", "), directory.url.path))
        }
        print(String(format: "%d of %d replays reproduced \(scenario.expect); median %.1f s per replay", reproduced, times,
                     seconds.sorted()[seconds.count / 2]))
        if reproduced != times { throw ExitCode(1) }
    }
}
