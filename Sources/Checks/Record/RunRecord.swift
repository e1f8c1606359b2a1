import Foundation
import StoreCheck
import Workload

/// One run, as it happened: the value a run produces and the judge turns into verdicts (Jepsen's history).
///
/// Everything in it was observed or measured: what the writers were told (their histories), what each backup,
/// restore and crash left (stores read on private copies, checker reports, comparisons), what the op log says a
/// crash took away and whose operations those were. Nothing in it is a verdict: `Judge.judge(_:)` makes those,
/// so a stored record (`record.json` in the run directory) can be judged again without running anything
/// (`lifeboat judge RUN_DIR`), and every invariant can be tested on a small record built by hand.
public struct RunRecord: Sendable, Codable {
    public static let schemaVersion = "lifeboat.record/1"
    public var schema = RunRecord.schemaVersion
    public var plan: JudgingPlan
    public var runID = ""
    public var startedAt = ""
    public var seconds = 0.0

    // The oracle's input.
    /// The store's objects before the writers started: identity -> state hash.
    public var initial: [UUID: String] = [:]
    /// Every transaction of every writer, as their histories tell (before the judge's freeze correction).
    public var transactions: [Transaction] = []
    /// When a `crash` fault rule froze the volume (run clock): the judge tells its EIO artifacts from failures.
    public var frozenAt: Double?
    /// The rounds of writers (one, or one more after each restore with `writers.after_restore: continue`).
    public var rounds: [RoundRecord] = []
    /// The live store's model version hashes and store UUID, read the first time a backup needed them.
    public var liveMetadata: StoreState?

    // What the run did and what it left.
    public var steps: [StepRecord] = []
    public var crash: CrashRecord?
    /// The live store at the end of the run, when no restore of the last round came before (a crash's own
    /// reading is in `crash`).
    public var liveAtEnd: StoreMeasurement?
    /// The readers' snapshots (nil: the run had no readers).
    public var readerSnapshots: [ReaderSnapshot]?
    /// How each writer and reader process ended.
    public var processes: [ProcessExit] = []
    public var cloud = CloudRecord()
    /// Every `relocate` that finished.
    public var relocations: [RelocationRecord] = []
    /// Every `damage` entry that ran: what it damaged, where, and the bytes (`restore-detects-damage`).
    public var damages: [DamageRecord] = []
    /// The writers' commit latency during each backup and restore (`CommitStalls`), from their histories.
    public var stalls: [StepStall] = []
    /// What each step measured, for `expect_metrics:`.
    public var stepMetrics = StepMetrics()
    /// The backup area's size while a sidecar ran (nil: not sampled).
    public var backupArea: BackupAreaRecord?
    /// The live store's -wal length, checkpoints and other processes' fsyncs over time (FaultFS runs with an op
    /// log), for the timeline.
    public var activity: StoreActivity?

    // The run's own facts, for the reports.
    public var writers: [WriterSummary] = []
    public var events: [TimelineEvent] = []
    public var operations: [OperationSummary] = []
    public var faults: [FaultSummary] = []
    public var coverage: RunCoverage?
    public var metrics: [String: Double] = [:]
    /// Problems of the run itself (a step that could not start, the time limit), not of the store.
    public var errors: [String] = []
    /// A program of the run could not start: nothing is judged (`Judge`), the run is "not run".
    public var environmentError: String?
    /// The run was cut short by SIGINT or SIGTERM (`Interruption.description`): its JUnit marks it an error.
    public var interruption: String?

    public init(plan: JudgingPlan) {
        self.plan = plan
    }
}

/// What the scenario asks of the judge: which invariants, what it expects, and the settings a verdict depends on.
public struct JudgingPlan: Sendable, Codable, Equatable {
    public var scenario: String
    public var scenarioFile: String
    public var description: String
    public var seed: UInt64
    /// The invariants the scenario names (`invariants:`); empty means every invariant of the registry.
    public var invariants: [String]
    /// "pass" or "violation A|B".
    public var expectation: String
    /// The writers' `synchronous`: only at full or extra does acknowledged mean durable.
    public var synchronous: String
    /// `faults.backups_on_volume`: backups meet the crash too.
    public var backupsOnVolume: Bool
    /// `expect_metrics:`: bounds on the steps' measurements.
    public var metricBounds: [MetricsCheck.Bound] = []

    public init(scenario: String, scenarioFile: String, description: String, seed: UInt64, invariants: [String], expectation: String,
                synchronous: String, backupsOnVolume: Bool, metricBounds: [MetricsCheck.Bound] = []) {
        self.metricBounds = metricBounds
        self.scenario = scenario
        self.scenarioFile = scenarioFile
        self.description = description
        self.seed = seed
        self.invariants = invariants
        self.expectation = expectation
        self.synchronous = synchronous
        self.backupsOnVolume = backupsOnVolume
    }

    /// The invariants whose violation meets a `violation` expectation (empty for `pass`).
    public var expectedViolations: [String] {
        expectation.hasPrefix("violation ") ? expectation.dropFirst("violation ".count).split(separator: "|").map(String.init) : []
    }
}

/// A measurement that may have failed: the value, or why it could not be taken (a store that cannot be read).
public struct Measured<Value: Sendable & Codable>: Sendable, Codable {
    public var value: Value?
    public var error: String?

    public init(_ value: Value) { self.value = value }
    public init(error: String) { self.error = error }

    /// Runs `measure`, keeping its error as text.
    public static func of(_ measure: () throws -> Value) -> Measured {
        do { return Measured(try measure()) } catch { return Measured(error: "\(error)") }
    }
}

/// A store as the run found it at one moment: its objects for the oracle and the checker's report.
public struct StoreMeasurement: Sendable, Codable {
    /// What the store is, in a verdict's words: "live store at the end", "backup-0 (replace)".
    public var label: String
    public var path: String
    /// Its objects, where a verdict needs them (nil: not read).
    public var state: Measured<StoreState>?
    public var checks: Measured<CheckReport>

    public init(label: String, path: String, state: Measured<StoreState>?, checks: Measured<CheckReport>) {
        self.label = label
        self.path = path
        self.state = state
        self.checks = checks
    }
}

/// One round of writers: when it began, the store it began from, and the live store as the restore that ended
/// it found it.
public struct RoundRecord: Sendable, Codable {
    public var number: Int
    public var start: Double
    public var base: [UUID: String]
    public var liveBeforeRestore: StoreState?
    public var liveBeforeRestoreAt: Double?

    public init(number: Int, start: Double, base: [UUID: String], liveBeforeRestore: StoreState? = nil, liveBeforeRestoreAt: Double? = nil) {
        self.number = number
        self.start = start
        self.base = base
        self.liveBeforeRestore = liveBeforeRestore
        self.liveBeforeRestoreAt = liveBeforeRestoreAt
    }
}

/// What each schedule entry measured the first time it ran (its peak memory, time, bytes loaded), by entry index,
/// and how to name it.
public struct StepMetrics: Sendable, Codable {
    public var measured: [Int: [String: Double]] = [:]
    public var labels: [Int: String] = [:]

    public init() {}
}

/// How a writer or reader process ended.
public struct ProcessExit: Sendable, Codable, Equatable {
    public var name: String
    public var status: Int32?
    public var signal: Int32?
    /// Killed by the runner (the crash, a restore that stops the writers, the end of the run): not a failure.
    public var killedByRunner: Bool
    /// The end of its output, for the finding.
    public var outputTail: String

    public init(name: String, status: Int32?, signal: Int32?, killedByRunner: Bool, outputTail: String) {
        self.name = name
        self.status = status
        self.signal = signal
        self.killedByRunner = killedByRunner
        self.outputTail = outputTail
    }

    /// It ended on its own with a non-zero status or a signal nobody sent.
    public var failed: Bool { !killedByRunner && ((status ?? 0) != 0 || signal != nil) }
}

/// The backup area's size while a sidecar ran, and when the last sidecar stopped.
public struct BackupAreaRecord: Sendable, Codable {
    public var samples: [Invariants.SizeSample]
    public var sidecarsEnded: Double

    public init(samples: [Invariants.SizeSample], sidecarsEnded: Double) {
        self.samples = samples
        self.sidecarsEnded = sidecarsEnded
    }
}
