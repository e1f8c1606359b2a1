import Scenario

/// The scenario's steps and when each comes due: after N commits, at a time, every N commits for `times`
/// rounds, or once the writers have finished.
struct Schedule {
    struct Entry {
        var index: Int
        var step: Scenario.Step
        var nextCommits: Int?
        var remainingTimes: Int
    }

    private(set) var entries: [Entry]

    init(_ steps: [Scenario.Step]) {
        entries = steps.enumerated().map { index, step in
            Entry(index: index, step: step, nextCommits: step.afterCommits, remainingTimes: step.times)
        }
    }

    /// The first step that is due, marked as taken (a repeating backup moves its threshold on).
    mutating func due(commits: Int, seconds: Double, writersRunning: Bool) -> (Int, Scenario.Step)? {
        for position in entries.indices where entries[position].remainingTimes > 0 {
            let entry = entries[position]
            let isDue: Bool
            if entry.step.afterWriters {
                isDue = !writersRunning
            } else if let threshold = entry.nextCommits {
                isDue = commits >= threshold
            } else if let at = entry.step.atSeconds {
                isDue = seconds >= at
            } else {
                isDue = true
            }
            guard isDue else { continue }
            entries[position].remainingTimes -= 1
            if let every = entry.step.everyCommits {
                entries[position].nextCommits = (entry.nextCommits ?? commits) + every
            }
            return (entry.index, entry.step)
        }
        return nil
    }

    var remaining: [Entry] { entries.filter { $0.remainingTimes > 0 } }

    func isFinished(writersRunning: Bool) -> Bool { remaining.isEmpty }

    func hasStepsDue(afterWriters: Bool) -> Bool { remaining.contains { $0.step.afterWriters == afterWriters } }
}
