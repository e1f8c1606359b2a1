import Foundation
import Reporting
import Runner
import Scenario

/// What the commands that run scenarios share: reading a scenario file named on the command line (a bad one
/// is bad input, exit 2 with file:line:column), runner settings from the `--reports`/`--scratch` options, and
/// one run, and an interruption turned into exit 130 (SIGINT) or 143 (SIGTERM).
enum ScenarioCommandSupport {
    static func load(_ file: URL) throws -> Scenario {
        do { return try ScenarioParser.parse(file: file) } catch let error as ScenarioError {
            throw CLIFailure.badInput(error.description)
        }
    }

    /// Settings for runs on FaultFS or a plain directory, as the scenario asks.
    static func settings(reports: String, scratch: String?) -> ScenarioRunner.Settings {
        var settings = ScenarioRunner.Settings.from(reports: URL(cliPath: reports), scratch: scratch.map { URL(cliPath: $0) })
        settings.makeVolume = StoreVolumes.make
        return settings
    }

    static func runOnce(_ scenario: Scenario, file: URL, settings: ScenarioRunner.Settings) throws -> (RunResult, RunDirectory) {
        // A run cannot be made without the lifeboat executable its children run: bad set-up, not a finding.
        do { _ = try LifeboatExecutable.locate() } catch { throw CLIFailure.badInput("\(error)") }
        let run = try ScenarioRuns.run(scenario, file: file.path, settings: settings)
        return (run.result, run.directory)
    }

    /// After a run's reports (and any `--junit` file) are written: stop with the signal's exit code.
    static func stopIfInterrupted(_ directory: RunDirectory) throws {
        if Interruption.requested { throw CLIFailure(code: Interruption.exitCode, message: "interrupted; report of the partial run: \(directory.url.path)") }
    }
}
