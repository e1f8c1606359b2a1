import Checks
import Foundation

/// The run's one record and its log, owned by the engine. Every part of a run hands what it measured to `add`
/// as a `RunRecord.Entry` the moment it has it, and every timeline line goes through `note`; nothing else
/// writes the record, and nothing keeps a copy of it beside it. The end of the run's own measurements are the
/// engine's last step (`RunEnd`, through `complete`).
final class RunJournal {
    /// The record so far: the judge's only input and the reports' only source.
    private(set) var record: RunRecord
    /// The run's log lines (`run.log` in the run folder).
    private(set) var log: [String] = []
    let clock: RunClock
    private let progress: (@Sendable (String) -> Void)?

    init(plan: JudgingPlan, clock: RunClock, progress: (@Sendable (String) -> Void)?) {
        record = RunRecord(plan: plan)
        self.clock = clock
        self.progress = progress
    }

    /// A line of the run's timeline (in the record) and of its log, at the run clock's now (or at `time`, a moment
    /// read before the action the line describes).
    func note(_ actor: String, _ kind: TimelineEvent.Kind, _ detail: String, at time: Double? = nil) {
        let t = time ?? clock.now()
        record.events.append(TimelineEvent(t: t, actor: actor, kind: kind, detail: detail))
        let line = String(format: "%8.3f  %@  %@", t, actor, detail)
        log.append(line)
        progress?(line)
    }

    /// A progress line for the terminal only (not in the log or the timeline).
    func progressLine(_ line: String) { progress?(line) }

    func add(_ entry: RunRecord.Entry) { record.add(entry) }

    func add(_ entries: [RunRecord.Entry]) { record.add(entries) }

    /// The engine's last step: the end-of-run measurements (`RunEnd`) and the run's own facts.
    func complete(_ body: (inout RunRecord) -> Void) { body(&record) }
}
