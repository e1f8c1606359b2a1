import ChildProcesses
import Checks
import Foundation
import Scenario
import Strategies

/// Environment errors of a run: a program the scenario names that is not installed, misspelled or not
/// executable. Nothing of it ran, so the run judges nothing: every verdict is "not applicable" with the reason,
/// the result carries `environmentError`, and the commands report it as exit 2 (one run) or a "not run" cell
/// (campaigns, the matrix, walks), never as `backup-completes` or any other finding. `EnvironmentFailure`
/// (ChildProcesses) decides what counts; this file only applies it to a run.
extension ScenarioRunner {
    /// Before anything starts: every `command` step's and sidecar's program, as far as the command line shows it.
    func preflightPrograms(environment: [String: String]) throws {
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
    static func environmentReason(_ error: any Error) -> String? {
        switch error {
        case RunError.environment(let message): message
        case let error as SpawnError: "\(error)"
        default: nil
        }
    }

    /// A sidecar that ended because its shell could not run its program.
    static func environmentFailure(of child: ChildRegistry.Child) -> String? {
        guard let termination = child.process.termination, !termination.timedOut, !termination.stopped else { return nil }
        return EnvironmentFailure.reason(exitCode: termination.exitCode, signal: termination.signal, output: child.output)
    }

    /// A step child that printed `EnvironmentFailureLine` instead of its outcome.
    static func environmentFailure(ofStepOutput output: String) -> String? {
        output.split(separator: "\n").last.flatMap { try? JSONDecoder().decode(EnvironmentFailureLine.self, from: Data($0.utf8)) }?.environmentError
    }
}
