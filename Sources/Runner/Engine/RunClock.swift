import Foundation

/// The run's clock: seconds since the run began, the clock of every time in the record, and the run's deadline
/// (`time_limit`, and Ctrl-C), which every loop of the engine checks.
final class RunClock {
    /// Unix time of the run's start, for children that write times on the run clock.
    private(set) var epoch = Date().timeIntervalSince1970
    let timeLimit: Double

    init(timeLimit: Double) {
        self.timeLimit = timeLimit
    }

    /// Starts the clock again: the run begins now.
    func restart() { epoch = Date().timeIntervalSince1970 }

    /// Seconds since the run began.
    func now() -> Double { Date().timeIntervalSince1970 - epoch }

    /// Throws when SIGINT/SIGTERM arrived or the run is past its `time_limit`: every loop of the engine calls it
    /// (and every wait on a child is cut short by the same flag), so Ctrl-C ends a run within milliseconds, also
    /// while it works through the schedule left after a crash.
    func checkDeadline() throws {
        if Interruption.requested { throw RunError.interrupted }
        if now() > timeLimit { throw RunError.timeLimit(timeLimit) }
    }
}
