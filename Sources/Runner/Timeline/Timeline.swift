import Scenario

/// The run's timeline: every planned event (the `schedule:` entries of any kind, and the scenario's crash) and
/// when each comes due. The schedulers (free and turns) ask it for the next due event and hand that to its
/// kind's handler (`RunEventKind`); they never look at what an event is. Jepsen's split, in small: the timeline
/// is the generator, the handlers the clients and nemesis, the invariants the checker over the recorded history.
struct Timeline {
    struct Entry {
        var index: Int
        var step: Scenario.Step
        var nextCommits: Int?
        var remainingTimes: Int
    }

    private(set) var entries: [Entry]
    /// When each entry last finished (run clock): what `after_step` waits for.
    private(set) var finishedAt: [Int: Double] = [:]
    /// The scenario's crash (`faults.crash`) until it has happened: at a commit count or a second, or during a
    /// step, whose event then carries it.
    private(set) var crash: Scenario.Crash?

    init(_ scenario: Scenario) {
        entries = scenario.schedule.enumerated().map { index, step in
            Entry(index: index, step: step, nextCommits: step.afterCommits, remainingTimes: step.times)
        }
        crash = scenario.faults.crash
    }

    /// The crash, when it is due at a commit count or (with a clock; the turns scheduler has none) a second.
    mutating func dueCrash(commits: Int, seconds: Double?) -> DueEvent? {
        guard let plan = crash, plan.duringStep == nil else { return nil }
        let atCommits = plan.afterCommits.map { commits >= $0 } ?? false
        let atSecond = plan.atSeconds.flatMap { at in seconds.map { $0 >= at } } ?? false
        guard atCommits || atSecond else { return nil }
        crash = nil
        return DueEvent(kind: CrashEvent.kind, index: nil, step: nil, crash: plan, commits: commits)
    }

    /// The first schedule entry that is due by its kind's due-check, marked as taken (a repeating entry moves
    /// its threshold on); it carries the crash when the crash is planned during it.
    mutating func dueStep(commits: Int, seconds: Double, writersRunning: Bool) -> DueEvent? {
        for position in entries.indices where entries[position].remainingTimes > 0 {
            let entry = entries[position]
            let handler = EventKinds.handler(for: entry.step.action.rawValue)
            guard handler?.isDue(entry, commits: commits, seconds: seconds, writersRunning: writersRunning)
                ?? triggerFired(entry, commits: commits, seconds: seconds, writersRunning: writersRunning) else { continue }
            entries[position].remainingTimes -= 1
            if let every = entry.step.everyCommits {
                entries[position].nextCommits = (entry.nextCommits ?? commits) + every
            }
            var during: Scenario.Crash?
            if let plan = crash, plan.duringStep == entry.index {
                during = plan
                crash = nil
            }
            return DueEvent(kind: entry.step.action.rawValue, index: entry.index, step: entry.step, crash: during, commits: commits)
        }
        return nil
    }

    /// After a crash (by a rule, or the planned one) nothing is planned to crash any more: what is left of the
    /// timeline runs against the recovered store.
    mutating func cancelCrash() { crash = nil }

    /// The crash if it is due, else the first due entry: the order in which the free scheduler looks.
    mutating func next(commits: Int, seconds: Double, writersRunning: Bool) -> DueEvent? {
        dueCrash(commits: commits, seconds: seconds) ?? dueStep(commits: commits, seconds: seconds, writersRunning: writersRunning)
    }

    /// The triggers every entry takes: once the writers have finished (`after_writers`), at a commit count
    /// (`after_commits`, moved on by `every_commits`), at a second (`at_seconds`), once another entry has
    /// finished (`after_step`, `delay` seconds later, and with `after_writers` once no writer runs; the turns
    /// scheduler has no clock, so there the delay makes it wait for the end of the writers), never here for `during_step` (the entry it names runs it), or at once.
    func triggerFired(_ entry: Entry, commits: Int, seconds: Double, writersRunning: Bool) -> Bool {
        if entry.step.duringStep != nil { return false }
        if let other = entry.step.afterStep {
            guard let finished = finishedAt[other], !(entry.step.afterWriters && writersRunning) else { return false }
            return seconds >= finished + (entry.step.delay ?? 0) || (entry.step.delay ?? 0) == 0
        }
        if entry.step.afterWriters { return !writersRunning }
        if let threshold = entry.nextCommits { return commits >= threshold }
        if let at = entry.step.atSeconds { return seconds >= at }
        return true
    }

    /// Notes that an entry's event has finished (once per occurrence; `after_step` waits for the last).
    mutating func finished(_ index: Int, at seconds: Double) {
        guard let entry = entries.first(where: { $0.index == index }), entry.remainingTimes == 0 else { return }
        finishedAt[index] = seconds
    }

    /// Takes the entries that run during entry `index` (`during_step`), in the order of their delays.
    mutating func takeDuring(_ index: Int) -> [DueEvent] {
        var taken: [DueEvent] = []
        for position in entries.indices where entries[position].remainingTimes > 0 && entries[position].step.duringStep == index {
            entries[position].remainingTimes = 0
            let entry = entries[position]
            taken.append(DueEvent(kind: entry.step.action.rawValue, index: entry.index, step: entry.step, crash: nil, commits: 0))
        }
        return taken.sorted { ($0.step?.delay ?? 0) < ($1.step?.delay ?? 0) }
    }

    var remaining: [Entry] { entries.filter { $0.remainingTimes > 0 } }

    var isFinished: Bool { remaining.isEmpty }

    func hasStepsDue(afterWriters: Bool) -> Bool { remaining.contains { $0.step.afterWriters == afterWriters } }

    /// Entries that can still come due once the writers are done: those after the writers, those at a second,
    /// and those after or during an entry that can.
    var hasEntriesDueLater: Bool {
        remaining.contains { canComeDueLater($0.index, depth: 0) }
    }

    private func canComeDueLater(_ index: Int, depth: Int) -> Bool {
        guard depth <= entries.count, let entry = entries.first(where: { $0.index == index }) else { return false }
        if entry.remainingTimes == 0 { return finishedAt[index] != nil }
        if entry.step.afterWriters || (entry.nextCommits == nil && entry.step.atSeconds != nil) { return true }
        if let other = entry.step.afterStep ?? entry.step.duringStep { return canComeDueLater(other, depth: depth + 1) }
        return false
    }

    /// One error per entry that never came due because the writers stopped first.
    var neverDue: [String] {
        remaining.map { "schedule[\($0.index)] (\($0.step.action.rawValue) \($0.step.strategy)) never came due: the writers stopped first" }
    }
}

/// An event that has come due: a schedule entry (with the crash when it is planned during it) or the crash.
struct DueEvent {
    /// The kind's name: the entry's action, or `crash`.
    var kind: String
    /// The entry's index in `schedule` (nil for the crash).
    var index: Int?
    var step: Scenario.Step?
    var crash: Scenario.Crash?
    /// Acknowledged commits when it came due.
    var commits: Int
}
