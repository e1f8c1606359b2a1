import ChildProcesses
import Checks
import Foundation
import Scenario
import Strategies

/// Environment errors of a run: a program the scenario names that is not installed, misspelled or not
/// executable, a harness child that could not open what it was given. Nothing of it ran, so the run judges
/// nothing: every verdict is "not applicable" with the reason, the result carries `environmentError`, and the
/// commands report it as exit 2 (one run) or a "not run" cell (campaigns, the matrix, walks), never as
/// `backup-completes` or any other finding. `EnvironmentFailure` (ChildProcesses) decides what counts; this file
/// only applies it to a run.
enum RunEnvironment {
    /// Before anything starts: every `command` step's and sidecar's program, as far as the command line shows it.
    static func preflight(_ scenario: Scenario, environment: [String: String]) throws {
        var commands = scenario.schedule.enumerated().compactMap { index, step in
            step.command.map { ("schedule[\(index)] (\(step.action.rawValue) \(step.strategy))", $0) }
        }
        commands += scenario.sidecars.map { ("sidecar \($0.name)", $0.command) }
        for (what, command) in commands {
            if let reason = EnvironmentFailure.preflight(command: command, environment: environment) {
                throw RunError.environment("\(what): \(reason)")
            }
        }
    }

    /// The environment reason of an error that ended a run's execution, if it is one.
    static func reason(_ error: any Error) -> String? {
        switch error {
        case RunError.environment(let message): message
        case let error as SpawnError: "\(error)"
        default: nil
        }
    }

    /// A sidecar that ended because its shell could not run its program.
    static func failure(of child: ChildRegistry.Child) -> String? {
        guard let termination = child.process.termination, !termination.timedOut, !termination.stopped else { return nil }
        return EnvironmentFailure.reason(exitCode: termination.exitCode, signal: termination.signal, output: child.output)
    }

    /// A child that printed `EnvironmentFailureLine` instead of its outcome (a step, or a reader on the store the
    /// run began with).
    static func failure(ofStepOutput output: String) -> String? {
        output.split(separator: "\n").last.flatMap { try? JSONDecoder().decode(EnvironmentFailureLine.self, from: Data($0.utf8)) }?.environmentError
    }
}

/// What a tool the scenario runs needs to find its way, the same for `command` steps and sidecars:
/// LIFEBOAT_STORE (the live store), LIFEBOAT_BACKUP_ROOT (where backups go: on the store's volume with
/// `faults.backups_on_volume`, so a tool's repository or replica there meets the crash too), LIFEBOAT_SCRATCH
/// (the run's scratch directory) and LIFEBOAT_SCENARIO_DIR (the scenario file's directory, for its scripts).
enum ToolEnvironment {
    static func of(_ scenario: Scenario, file: String, live: URL, scratch: URL, volume: any StoreVolume) -> [String: String] {
        let base = scenario.faults.backupsOnVolume ? volume.directory : scratch
        return [
            "LIFEBOAT_STORE": live.path,
            "LIFEBOAT_BACKUP_ROOT": base.appendingPathComponent("backups").path,
            "LIFEBOAT_SCRATCH": scratch.path,
            "LIFEBOAT_SCENARIO_DIR": URL(fileURLWithPath: file).deletingLastPathComponent().path,
        ]
    }
}
