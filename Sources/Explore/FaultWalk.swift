import Checks
import FaultVocabulary
import Foundation
import Reporting
import Runner
import Scenario

/// SQLite-style exhaustive fault walk: fail (or crash right after) the 1st matching operation, then the 2nd, the
/// 3rd, ..., checking the scenario's invariants after each, until a run completes with no fault fired (N went past
/// the last matching operation). Each N is one full run of the scenario with one more rule, `nth: N`; a failing N
/// gets a repro that `lifeboat replay` replays. The walk's state file makes it resumable, and `shard K/M` takes
/// every M-th N so several machines share one walk.
///
/// N names the same operation in every run only when the runs interleave the same way: under the `turns`
/// scheduler they do (one writer transaction at a time, in an order drawn from the seed); under `free` the
/// operations of concurrent writers and steps race, and N can land on another operation (see docs/campaigns.md).
public struct FaultWalk: Sendable {
    public struct Config: Sendable, Codable, Equatable {
        public var scenarioFile: String
        public var ops: [FaultOp]
        public var path: String
        /// What happens at the Nth call (`errno EIO`, `crash torn`, ...; saved as its text).
        public var action: FaultAction
        public var from: Int
        /// Highest N to try (nil: until a run fires nothing).
        public var max: Int?
        /// Shard K of M (1-based): this walk takes N = K, K+M, K+2M, ... (from `from` on).
        public var shard: Int
        public var shards: Int
        /// Stop at the first N that violates an invariant (a quick "is there a failing N at all").
        public var stopAtFailure: Bool
        /// Count only the calls of the run's children whose name matches this glob (`backup-1`): the rule's
        /// `actor`, so N walks one program's own operations (`try --deep`); nil counts every caller.
        public var actor: String?
        /// Invariants whose violation is the program's right answer to the injected fault, not a finding: a
        /// backup that reports failure when its write fails (`backup-completes`). Nil: every violation counts (and a walk saved before this key reads back as before).
        public var excused: [String]?
        /// Only these Ns, ascending (`try --deep`'s grouped write walks: the first and last write of each run of
        /// writes to one file); nil walks every N. The walk ends after the last one.
        public var only: [Int]?
        /// For `action: hold`: what the app does while the Nth call is held (`while_held`).
        public var whileHeld: [HoldWork]?

        public init(scenarioFile: String, ops: [FaultOp], path: String, action: FaultAction, from: Int = 1, max: Int? = nil,
                    shard: Int = 1, shards: Int = 1, stopAtFailure: Bool = false, actor: String? = nil, excused: [String]? = nil,
                    only: [Int]? = nil, whileHeld: [HoldWork]? = nil) {
            self.only = only
            self.whileHeld = whileHeld
            self.stopAtFailure = stopAtFailure
            self.actor = actor
            self.excused = excused
            self.scenarioFile = scenarioFile
            self.ops = ops
            self.path = path
            self.action = action
            self.from = from
            self.max = max
            self.shard = shard
            self.shards = shards
        }

        /// The Ns of this shard, in order, from `from` on (of `only`, when it is set).
        func indices() -> AnySequence<Int> {
            let remainder = (shard - 1) % shards
            if let only {
                return AnySequence(only.filter { $0 >= Swift.max(1, from) && ($0 - 1) % shards == remainder })
            }
            var first = Swift.max(1, from)
            while (first - 1) % shards != remainder { first += 1 }
            return AnySequence(sequence(first: first) { $0 > Int.max - shards ? nil : $0 + shards })
        }
    }

    /// One N of the walk.
    public struct Row: Sendable, Codable, Equatable {
        public var n: Int
        /// Whether the walk's rule fired (false: N is past the last matching operation; the walk ends there).
        public var fired: Bool
        /// The operation hit: op, path, offset, size and the writer or step behind it.
        public var hit: FaultHit?
        /// "held", "violated" (some invariant), "error" (the run itself failed), "hung" (the program never
        /// returned: the run was stopped at its time limit, `hung` says after what) or "not run" (a program could
        /// not start: nothing was judged; `errors` says why, and a resumed walk tries N again).
        public var outcome: String
        public var violated: [String]
        public var evidence: [String]
        /// Why, where the run could tell: the operations a crash dropped (`Verdict.cause`, walks with a crash).
        public var cause: String?
        public var errors: [String]
        public var seconds: Double
        public var report: String
        /// For a violated N: a scenario with the rule `nth: N` expecting the violation (`lifeboat replay` it).
        public var repro: String?
        /// The run's own coverage: the walk's is the sum over its rows, so merged shards sum exactly the rows kept.
        public var coverage: RunCoverage?
        /// For a hung N: what the program was doing when it was stopped ("after EIO at rename ... it made no call
        /// in the 30 s it was given"; `FaultWalk+Hung.swift`); nil otherwise (and in a walk saved before this key).
        public var hung: String?
    }

    public struct State: Sendable, Codable {
        public var schema = "lifeboat.walk/1"
        public var scenario: String
        public var config: Config
        public var rows: [Row] = []
        /// Why the walk stopped: nil while it can continue.
        public var finished: String?
        public var seconds = 0.0
        public var coverage: RunCoverage?

        public var firstFailing: Row? { rows.filter { $0.outcome == "violated" }.min { $0.n < $1.n } }
    }

    public static let stateFile = "walk.json"
    /// A row's outcome when its run could not start a program (counted apart from held and violated).
    public static let notRun = "not run"
    /// A row's outcome when the program never returned and the run was stopped at its time limit: the program's
    /// children killed and the volume unmounted by the run itself, the N recorded and the walk going on.
    public static let hung = "hung"

    let base: Scenario
    let config: Config
    let directory: URL
    let settings: ScenarioRunner.Settings
    let progress: (@Sendable (String) -> Void)?
    /// No N starts after this moment (`try --deep --budget`): the walk stops with `finished` nil, resumable.
    let deadline: Date?
    /// Runs at a time (`RunLoop`). The walk runs the next `jobs` Ns together and takes their rows in N's order,
    /// stopping where one at a time would have stopped (a run that fires nothing, a failure with
    /// `--stop-at-failure`): the rows past that point are dropped, so the state is the same at any `jobs`.
    let jobs: Int
    /// Whether a run's scratch goes once the walk has read its op log (the caller's settings did not keep it).
    let removesScratch: Bool

    /// - Parameters: `directory` the walk's directory (reports/<walk-id>); a directory holding a state file for
    ///   the same configuration is resumed.
    public init(base: Scenario, config: Config, directory: URL, settings: ScenarioRunner.Settings,
                progress: (@Sendable (String) -> Void)? = nil, deadline: Date? = nil, jobs: Int = 1) {
        self.deadline = deadline
        self.jobs = max(1, jobs)
        var base = base
        // The walk judges every invariant itself, whatever the drill expected.
        base.expect = .pass
        self.base = base
        self.config = config
        self.directory = directory
        var settings = settings
        settings.reportsRoot = directory.appendingPathComponent("runs")
        settings.progress = nil
        // The op log of a run that hung says which call the fault fired on and what the program did next (the
        // run's own fault table is written only when it ends in time); each run's scratch is removed after it,
        // unless the caller's settings keep it.
        removesScratch = !settings.keepScratch
        settings.keepScratch = true
        self.settings = settings
        self.progress = progress
    }

    public enum WalkError: Error, CustomStringConvertible {
        case otherWalk(String)
        case runFailed(String)
        public var description: String {
            switch self {
            case .otherWalk(let m), .runFailed(let m): m
            }
        }
    }

    /// The state saved in `directory`, if any.
    public static func load(_ directory: URL) throws -> State? {
        let file = directory.appendingPathComponent(stateFile)
        guard FileManager.default.fileExists(atPath: file.path) else { return nil }
        return try JSONDecoder().decode(State.self, from: Data(contentsOf: file))
    }

    /// The scenario of one N: the base with the walk's rule armed at the Nth matching operation.
    public func scenario(n: Int) -> Scenario { Self.scenario(base, config: config, n: n) }

    /// `base` with `config`'s rule armed at the Nth matching operation: the one builder of a walk's scenario at N,
    /// for the walk's own runs and for `try --deep`'s shrinking of a finding's repro.
    public static func scenario(_ base: Scenario, config: Config, n: Int) -> Scenario {
        var s = base
        var rule = Scenario.Rule()
        rule.ops = config.ops
        rule.path = config.path
        rule.nth = n
        rule.action = config.action
        rule.actor = config.actor
        rule.whileHeld = config.whileHeld
        s.faults.rules.append(rule)
        // A crash walk crashes where N says; the scenario's own crash would come on top of it.
        if case .crash = config.action { s.faults.crash = nil }
        return s
    }

    /// Runs (or resumes) the walk until a run fires nothing, `max` is passed, or an interruption; saves the state
    /// after every run and returns it.
    public func run() throws -> State {
        var state: State
        if let saved = try Self.load(directory) {
            guard saved.config == config else {
                throw WalkError.otherWalk("\(directory.path) holds a walk with other settings (\(saved.config.ops.text) \(saved.config.path) -> \(saved.config.action), shard \(saved.config.shard)/\(saved.config.shards)); use another directory")
            }
            state = saved
            progress?("resuming: \(saved.rows.count) N(s) done" + (saved.finished.map { "; already finished: \($0)" } ?? ""))
        } else {
            state = State(scenario: base.name, config: config)
        }
        let done = Set(state.rows.filter { $0.outcome != FaultWalk.notRun }.map(\.n))
        let pending = config.indices().makeIterator()
        walking: while state.finished == nil {
            // The next Ns to run, up to `jobs` of them (one at a time: exactly the old loop).
            var batch: [Int] = []
            while batch.count < jobs, let n = pending.next() {
                if let max = config.max, n > max {
                    if batch.isEmpty { state.finished = "reached --max \(max)" }
                    break
                }
                if !done.contains(n) { batch.append(n) }
            }
            if batch.isEmpty { break }
            if Interruption.requested { break }
            if let deadline, Date() >= deadline { break }
            let started = Date()
            let results = try RunLoop(jobs: jobs).map(batch) { n, _ in try self.runOne(n) }
            // Each run's own time when they ran together; the wall time when one at a time.
            let wall = Date().timeIntervalSince(started)
            for (n, (row, coverage)) in zip(batch, results) {
                if row.outcome == Self.notRun {
                    // The environment, not N: stop here with the row in the table; a rerun in this directory tries N again.
                    state.rows.removeAll { $0.n == n }
                    state.rows.append(row)
                    state.rows.sort { $0.n < $1.n }
                    progress?("N=\(n): not run: \(row.errors.first ?? "")")
                    break walking
                }
                if row.outcome == Self.hung {
                    // The program never returned: recorded, and the walk goes on with the next N (a hang is no
                    // failing N).
                    state.seconds += batch.count == 1 ? wall : row.seconds
                    state.rows.removeAll { $0.n == n }
                    state.rows.append(row)
                    state.rows.sort { $0.n < $1.n }
                    progress?("N=\(n): \(row.hit?.summary ?? "(before the fault fired)") -> hung: \(row.hung ?? "")")
                    // Hung before its Nth call: the program reaches no later N either, so the walk ends here.
                    if !row.fired { state.finished = "run N=\(n) hung before its fault fired: the program never reached that call" }
                    try save(state)
                    if state.finished != nil { break walking }
                    continue
                }
                if !row.fired, !row.errors.isEmpty {
                    // The run broke before the fault could fire: that says nothing about N. Stop without recording it,
                    // so a rerun in the same directory tries N again.
                    try save(state)
                    throw WalkError.runFailed("N=\(n): the run failed before the fault fired (\(row.errors.joined(separator: "; "))); report \(row.report)")
                }
                state.coverage = RunCoverage.merged([state.coverage, coverage].compactMap { $0 })
                state.seconds += batch.count == 1 ? wall : row.seconds
                state.rows.removeAll { $0.n == n }
                state.rows.append(row)
                state.rows.sort { $0.n < $1.n }
                progress?("N=\(n): \(row.fired ? (row.hit?.summary ?? "fired") : "no fault fired") -> \(row.outcome)\(row.violated.isEmpty ? "" : " (\(row.violated.joined(separator: ", ")))")")
                if !row.fired { state.finished = "run N=\(n) completed with no fault fired: every matching operation was walked" }
                if config.stopAtFailure, row.outcome == "violated" { state.finished = "stopped at the first failing N (--stop-at-failure)" }
                try save(state)
                if state.finished != nil { break walking }
            }
        }
        if state.finished == nil, let only = config.only, !Interruption.requested, deadline.map({ Date() < $0 }) ?? true,
           Set(only).isSubset(of: Set(state.rows.filter { $0.outcome != Self.notRun }.map(\.n))) {
            state.finished = "every chosen N was walked (\(only.count))"
        }
        try save(state)
        return state
    }

    func runOne(_ n: Int) throws -> (Row, RunCoverage?) {
        let scenario = scenario(n: n)
        let started = Date()
        let run = try ScenarioRuns.run(scenario, file: config.scenarioFile, settings: settings)
        defer { if removesScratch, let scratch = run.scratch { try? FileManager.default.removeItem(at: scratch) } }
        let result = run.result
        let opLog = run.scratch?.appendingPathComponent("faultfs.oplog")
        if let limit = Self.hungLimit(result, scenario: scenario), !crashFired(opLog: opLog) {
            var row = hungRow(n, result: result, report: run.directory.url.path, opLog: opLog, limit: limit, seconds: Date().timeIntervalSince(started))
            row.coverage = result.coverage
            return (row, result.coverage)
        }
        let walkRule = result.faults.forRule(scenario.faults.rules.count - 1)
        let row = try Self.row(n: n, of: run, scenario: scenario, file: config.scenarioFile, fired: (walkRule?.fired ?? 0) > 0, hit: walkRule?.hit,
                               excused: config.excused ?? [], seconds: Date().timeIntervalSince(started),
                               repro: (name: "\(base.name)-walk-n\(n)", file: directory.appendingPathComponent("repro-n\(n).yaml"),
                                       note: "Fault walk N=\(n): \(walkRule?.hit?.summary ?? "")"))
        return (row, result.coverage)
    }

    /// The one builder of a walk's row from its run (every N of a walk, and `try --deep`'s crash after success):
    /// its outcome, what it violated (less what the walk excuses), the evidence and cause; for a violation, the
    /// repro (`RunReports.writeRepro`) at `repro.file`, headed by `repro.note`.
    static func row(n: Int, of run: ScenarioRuns.Outcome, scenario: Scenario, file: String, fired: Bool, hit: FaultHit?, excused: [String],
                    seconds: Double, repro: (name: String, file: URL, note: String)) throws -> Row {
        let result = run.result
        let violated = result.verdicts.filter { $0.status == .violated && !excused.contains($0.invariant) }
        let outcome = result.environmentError != nil ? Self.notRun : violated.isEmpty ? (result.errors.isEmpty ? "held" : "error") : "violated"
        var row = Row(n: n, fired: fired, hit: hit, outcome: outcome,
                      violated: violated.map(\.invariant), evidence: Array(violated.flatMap(\.evidence).prefix(3)),
                      cause: violated.compactMap(\.cause).first,
                      errors: result.environmentError.map { ["environment error: \($0)"] } ?? result.errors,
                      seconds: seconds, report: run.directory.url.path)
        row.coverage = result.coverage
        if let first = violated.first {
            try RunReports.writeRepro(scenario, file: file, violated: first.invariant, name: repro.name, note: repro.note, to: repro.file)
            row.repro = repro.file.path
        }
        return row
    }

    func save(_ state: State) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(state).write(to: directory.appendingPathComponent(Self.stateFile), options: .atomic)
        try FaultWalkReport.write(state, to: directory)
    }
}
