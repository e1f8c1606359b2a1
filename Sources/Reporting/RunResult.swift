import Checks
import Foundation

/// Everything a run produced, in a versioned schema: `report.json` is this, encoded; every other report is a
/// pure function of it.
public struct RunResult: Sendable, Codable {
    /// 2 added `coverage` and `faults[].hit`; readers accept 1 too (both are optional).
    public static let schemaVersion = "lifeboat.run/2"
    public static let readableSchemas: Set<String> = ["lifeboat.run/1", "lifeboat.run/2"]
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
    /// Set when SIGINT/SIGTERM cut the run short ("interrupted by SIGTERM"): its verdicts say nothing, and JUnit
    /// reports the run as an error so CI does not show it green.
    public var interruption: String?

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

/// One thing that happened, at a time since the run began, by an actor (writer-1, backup-0, faultfs).
public struct TimelineEvent: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case start, end, commit, fault, crash, recovery, error, note }
    public var t: Double
    public var actor: String
    public var kind: Kind
    public var detail: String

    public init(t: Double, actor: String, kind: Kind, detail: String) {
        self.t = t
        self.actor = actor
        self.kind = kind
        self.detail = detail
    }
}

public struct WriterSummary: Sendable, Codable, Equatable {
    public var writer: Int
    public var committed: Int
    public var failed: Int
    public var inFlight: Int
    public var firstCommit: Double?
    public var lastCommit: Double?
    /// Commit times, for the timeline (thinned to at most a few hundred).
    public var commitTimes: [Double]

    public init(writer: Int, committed: Int, failed: Int, inFlight: Int, firstCommit: Double?, lastCommit: Double?, commitTimes: [Double]) {
        self.writer = writer
        self.committed = committed
        self.failed = failed
        self.inFlight = inFlight
        self.firstCommit = firstCommit
        self.lastCommit = lastCommit
        self.commitTimes = commitTimes
    }
}

public struct OperationSummary: Sendable, Codable, Equatable {
    public var name: String
    public var action: String
    public var strategy: String
    public var start: Double
    public var end: Double
    public var succeeded: Bool
    public var store: String
    public var details: [String: String]
    public var error: String?

    public init(name: String, action: String, strategy: String, start: Double, end: Double, succeeded: Bool, store: String,
                details: [String: String], error: String?) {
        self.name = name
        self.action = action
        self.strategy = strategy
        self.start = start
        self.end = end
        self.succeeded = succeeded
        self.store = store
        self.details = details
        self.error = error
    }
}

public struct FaultSummary: Sendable, Codable, Equatable {
    public var name: String
    public var fired: Int
    public var detail: String
    /// The first call the rule fired on (lifeboat.run/2).
    public var hit: FaultHit?

    public init(name: String, fired: Int, detail: String) {
        self.name = name
        self.fired = fired
        self.detail = detail
    }
}

/// The call a fault rule first fired on: what it was, where, and which writer or step made it.
public struct FaultHit: Sendable, Codable, Equatable {
    public var op: String
    public var path: String
    /// From the op log, when the run kept one.
    public var offset: Int64?
    public var length: Int64?
    /// The child that made the call ("writer-1", "backup-0"), found from the caller's pid and its ancestors.
    public var actor: String?
    public var pid: Int32?
    public var command: String?
    /// Wall-clock time of the call (seconds since 1970).
    public var at: Double?

    public init(op: String, path: String, offset: Int64? = nil, length: Int64? = nil, actor: String? = nil, pid: Int32? = nil,
                command: String? = nil) {
        self.op = op
        self.path = path
        self.offset = offset
        self.length = length
        self.actor = actor
        self.pid = pid
        self.command = command
    }

    /// "write /Library.sqlite-wal @4152 +4096 by writer-1".
    public var summary: String {
        var text = "\(op) \(path)"
        if let offset { text += " @\(offset)" }
        if let length { text += " +\(length)" }
        text += " by \(actor ?? command.map { "pid \(pid ?? 0) (\($0))" } ?? "an unknown process")"
        return text
    }
}
