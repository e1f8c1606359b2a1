import ArgumentParser
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat replay repro.yaml`: runs a repro (what explore or any run writes) several times and says whether
/// each run showed the verdict it records; exit 0 only when every replay did, 2 when its program could not
/// start (a script the repro names is gone: "not run" with the reason).
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
        let scenario = try ScenarioCommandSupport.load(file)
        var settings = ScenarioCommandSupport.settings(reports: reports, scratch: scratch)
        Interruption.install()
        print("replaying \(scenario.name) (seed \(scenario.seed), scheduler \(scenario.scheduler), expect \(scenario.expect)) \(times) time(s)"
              + (times > 1 ? " (--times 1 replays once)" : ""))
        // One unit per replay; on a terminal the line also shows the run's latest step and the time going by.
        let progress = Progress(total: times, label: "replays")
        settings.progress = { line in progress.activity(Self.step(line)) }
        progress.tick()
        defer { progress.finish() }
        var seconds: [Double] = []
        var notRun: String?
        let reproduced: Int
        do {
            reproduced = try FindingReplay.replay(scenario, file: file.path, times: times, settings: settings) { round, result, directory, elapsed in
                if let reason = result.environmentError {
                    notRun = reason
                    print("  \(round): NOT RUN: \(reason) — \(directory.url.path)/report.html")
                    return
                }
                seconds.append(elapsed)
                let violated = result.verdicts.filter { $0.status == .violated }.map(\.invariant)
                progress.step(String(format: "%d: %@ in %.1f s (violated: %@) — %@/report.html", round,
                                     TerminalStyle.outcome(result.expectationMet ? "reproduced" : "DID NOT REPRODUCE", good: result.expectationMet), elapsed,
                                     violated.isEmpty ? "none" : violated.joined(separator: ", "), directory.url.path))
            }.reproduced
        } catch let error as RunError {
            throw CLIFailure.badInput("\(error)")
        }
        progress.finish()
        // A program that could not start replayed nothing: exit 2 with the reason, never "did not reproduce".
        if let notRun { throw CLIFailure.badInput("not run: \(notRun)") }
        if Interruption.requested { throw CLIFailure(code: Interruption.exitCode, message: "interrupted after \(seconds.count) replay(s)") }
        print(String(format: "%d of %d replays reproduced \(scenario.expect); median %.1f s per replay", reproduced, times,
                     seconds.sorted()[seconds.count / 2]))
        if reproduced != times { throw ExitCode(1) }
    }

    /// A runner line ("   3.456  runner  copying ...") as a progress step: its words after the time and actor.
    static func step(_ line: String) -> String {
        let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
        return words.count == 3 ? "\(words[1]): \(words[2].trimmingCharacters(in: .whitespaces))" : line.trimmingCharacters(in: .whitespaces)
    }
}
