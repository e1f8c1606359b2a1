import Foundation

extension ScenarioRunner {
    /// Throws when SIGINT/SIGTERM arrived or the run is past its `time_limit`: every loop of the runner calls
    /// it (and every wait on a child is cut short by the same flag), so Ctrl-C ends a run within milliseconds,
    /// also while it works through the schedule left after a crash.
    func checkDeadline() throws {
        if Interruption.requested { throw RunError.interrupted }
        if now() > scenario.timeLimit { throw RunError.timeLimit(scenario.timeLimit) }
    }
}
