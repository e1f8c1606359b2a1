import Checks
import Foundation
import Reporting
import Scenario

/// The runner's half of `RunReports`: the replay file needs the scenario model (`ScenarioYAML`) and the
/// scripts' pinning (`ProgramFiles`), which Reporting does not depend on.
extension RunReports {
    static func write(_ result: RunResult, record: RunRecord, scenario: Scenario, log: [String], to run: RunDirectory) throws {
        let repro = "# Replay: lifeboat run \(run.url.path)/repro.yaml\n" + ScenarioYAML.render(replayable(scenario, file: result.scenarioFile))
        try write(result, record: record, repro: repro, log: log, to: run)
    }

    /// The scenario with its scripts pinned (`ProgramFiles.pinned`: LIFEBOAT_SCENARIO_DIR to the original
    /// directory, a relative script path to an absolute one), since the repro lives in the report directory and
    /// may be copied anywhere.
    public static func replayable(_ scenario: Scenario, file: String) -> Scenario {
        let directory = URL(fileURLWithPath: file).deletingLastPathComponent().path
        var copy = scenario
        for index in copy.schedule.indices {
            copy.schedule[index].command = copy.schedule[index].command.map { ProgramFiles.pinned($0, scenarioDirectory: directory) }
        }
        for index in copy.sidecars.indices {
            copy.sidecars[index].command = ProgramFiles.pinned(copy.sidecars[index].command, scenarioDirectory: directory)
        }
        return copy
    }

    /// The repro file of a finding a many-runs command made (a walk's N, `try --deep`'s crash after success): the
    /// scenario made replayable, expecting `violated`, named `name`, headed by `note` and how to replay it; written
    /// atomically at `url`; `comments` are more lines of its head (what a shrink reduced). The one builder of these
    /// files (the matrix's, which may name its scripts relative to a published folder, is `ToolMatrix.renderRepro`).
    public static func writeRepro(_ scenario: Scenario, file: String, violated: String, name: String, note: String,
                                  comments: [String] = [], to url: URL) throws {
        var repro = replayable(scenario, file: file)
        repro.expect = .violation(violated)
        repro.name = name
        let text = "# \(note) -> \(violated) violated\n" + comments.map { "# \($0)\n" }.joined()
            + "# Replay: lifeboat replay \(url.path)\n" + ScenarioYAML.render(repro)
        try Data(text.utf8).write(to: url, options: .atomic)
    }
}
