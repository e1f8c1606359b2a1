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
}
