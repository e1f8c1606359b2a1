import Checks
import Foundation

/// Everything a run produced, in a versioned schema: `report.json` is this, encoded; every other report is a
/// pure function of it.
public struct RunResult: Sendable, Codable {
    /// 2 added `coverage` and `faults[].hit`; 3 added `verdicts[].owner` (`app` for the app's own findings,
    /// absent for the program's) and `fix`; 4 added `verdicts[].consequence` and `activity`; readers accept 1 to 3 too (what
    /// was added is optional).
    public static let schemaVersion = "lifeboat.run/4"
    public static let readableSchemas: Set<String> = ["lifeboat.run/1", "lifeboat.run/2", "lifeboat.run/3", "lifeboat.run/4"]
    public var schema = RunResult.schemaVersion
    public var runID: String
    public var scenario: String
    public var scenarioFile: String
    public var description: String
    public var seed: UInt64
    /// "pass" or "violation <invariant>".
    public var expectation: String
    /// Whether the verdicts show what the scenario expects.
    public var expectationMet: Bool
    public var startedAt: String
    public var seconds: Double
    public var verdicts: [Verdict]
    public var events: [TimelineEvent]
    public var writers: [WriterSummary]
    public var operations: [OperationSummary]
    public var faults: [FaultSummary]
    public var metrics: [String: Double]
    /// Problems of the run itself (a step that could not start, the time limit), not of the store.
    public var errors: [String]
    /// FaultFS fault coverage (runs on FaultFS only; absent in lifeboat.run/1 reports).
    public var coverage: RunCoverage?
    /// Set when a program of the run could not start (not installed, misspelled, not executable): nothing was
    /// judged, every verdict is not-applicable, and commands count the run as "not run" (exit 2 alone).
    public var environmentError: String?
    /// The live store's -wal length, checkpoints and other processes' fsyncs over time (FaultFS runs), for the
    /// timeline (lifeboat.run/4).
    public var activity: StoreActivity?
    /// Set when SIGINT/SIGTERM cut the run short ("interrupted by SIGTERM"): its verdicts say nothing, and JUnit
    /// reports the run as an error so CI does not show it green.
    public var interruption: String?
    /// The writers' commit latency during each backup and restore (absent in reports before it was measured).
    public var stalls: [StepStall]?
    /// What each `damage` entry damaged (absent when the run had none).
    public var damages: [DamageRecord]?

    public init(runID: String, scenario: String, scenarioFile: String, description: String, seed: UInt64, expectation: String,
                expectationMet: Bool, startedAt: String, seconds: Double, verdicts: [Verdict], events: [TimelineEvent],
                writers: [WriterSummary], operations: [OperationSummary], faults: [FaultSummary], metrics: [String: Double],
                errors: [String], coverage: RunCoverage? = nil) {
        self.runID = runID
        self.scenario = scenario
        self.scenarioFile = scenarioFile
        self.description = description
        self.seed = seed
        self.expectation = expectation
        self.expectationMet = expectationMet
        self.startedAt = startedAt
        self.seconds = seconds
        self.verdicts = verdicts
        self.events = events
        self.writers = writers
        self.operations = operations
        self.faults = faults
        self.metrics = metrics
        self.errors = errors
        self.coverage = coverage
    }
}

extension RunResult {
    /// The result of a run record: the judge's verdicts and expectation with the record's facts. Every report is
    /// a pure function of this, so a re-judged record (`lifeboat judge`) renders the same reports.
    public static func judged(_ record: RunRecord) -> RunResult {
        let judgement = Judge.judge(record)
        let plan = record.plan
        var result = RunResult(runID: record.runID, scenario: plan.scenario, scenarioFile: plan.scenarioFile, description: plan.description,
                               seed: plan.seed, expectation: plan.expectation, expectationMet: judgement.expectationMet,
                               startedAt: record.startedAt, seconds: record.seconds, verdicts: judgement.verdicts, events: record.events,
                               writers: record.writers, operations: record.operations, faults: record.faults, metrics: record.metrics,
                               errors: judgement.errors, coverage: record.coverage)
        result.environmentError = record.environmentError
        result.interruption = record.interruption
        result.activity = record.activity
        result.stalls = record.stalls.isEmpty ? nil : record.stalls
        result.damages = record.damages.isEmpty ? nil : record.damages
        return result
    }
}
