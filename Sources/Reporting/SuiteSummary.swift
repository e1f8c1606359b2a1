import Checks
import Foundation

/// A suite's `summary.json` (schema `lifeboat.suite/1`): the campaign it belongs to (scenarios, seeds, the full
/// list of (scenario, seed) pairs and a fingerprint of all three plus the lifeboat version), the slice this
/// folder ran (a shard, or all of it), and one entry per pair: ran, skipped (FaultFS without FUSE) or not run
/// (time budget, interruption). `index.html`, `junit.xml` and `report merge` are pure functions of it, so a
/// merge of shard folders needs nothing but their summaries and run folders.
public struct SuiteSummary: Sendable, Codable, Equatable {
    public static let schemaVersion = "lifeboat.suite/1"
    public var schema = SuiteSummary.schemaVersion
    public var suiteID: String
    public var campaign: CampaignInfo
    /// The slice this folder holds; nil for a whole campaign (unsharded, or merged).
    public var shard: ShardInfo?
    /// For a merged suite: the suite ids of the shards it came from.
    public var mergedFrom: [String] = []
    public var startedAt: String
    public var seconds: Double
    public var fuse: FuseInfo
    public var options: Options
    public var entries: [SuiteEntry]
    /// Set when the campaign did not run to its end: stopped by SIGINT/SIGTERM, or (in a summary written while
    /// it ran) still running or killed. CI must not read such a suite as a pass: JUnit marks it as an error.
    public var interruption: String?
    /// Derived from `entries` when written (for readers of the JSON; the renderers recompute them).
    public var scenarios: [ScenarioTally] = []
    public var invariants: [InvariantTally] = []
    public var outcome: Outcome = Outcome(code: 0, word: "passed", ran: 0, asExpected: 0, unexpected: 0, flaky: 0, skipped: 0, notRun: 0)

    public init(suiteID: String, campaign: CampaignInfo, shard: ShardInfo?, startedAt: String, seconds: Double,
                fuse: FuseInfo, options: Options, entries: [SuiteEntry]) {
        self.suiteID = suiteID
        self.campaign = campaign
        self.shard = shard
        self.startedAt = startedAt
        self.seconds = seconds
        self.fuse = fuse
        self.options = options
        self.entries = entries
    }

    /// What makes two suite folders parts of one campaign: the same scenarios (by content), the same pairs and
    /// the same lifeboat version, summed up in `id`.
    public struct CampaignInfo: Sendable, Codable, Equatable {
        /// A SHA-256 (hex) over the version, each scenario's content fingerprint and the pair list.
        public var id: String
        public var lifeboatVersion: String
        /// The seeds as given (`1-200`, `1-5,9`), or, when each scenario ran its own, "scenario seeds" and the
        /// seeds they are (`scenario seeds: 1, 7`).
        public var seeds: String
        public var scenarios: [ScenarioRef]
        public var pairs: [Pair]

        public init(id: String, lifeboatVersion: String, seeds: String, scenarios: [ScenarioRef], pairs: [Pair]) {
            self.id = id
            self.lifeboatVersion = lifeboatVersion
            self.seeds = seeds
            self.scenarios = scenarios
            self.pairs = pairs
        }
    }

    public struct ScenarioRef: Sendable, Codable, Equatable {
        public var name: String
        /// The file as named on the command line (informative only: paths differ between CI machines).
        public var file: String
        /// SHA-256 (hex) of the parsed scenario with its seed cleared: the same drill on every machine.
        public var fingerprint: String
        public var expectation: String
        public var needsFaultFS: Bool
        /// What the drill demonstrates: the first sentence of its description (nil without one).
        public var demonstrates: String?

        public init(name: String, file: String, fingerprint: String, expectation: String, needsFaultFS: Bool, demonstrates: String? = nil) {
            self.name = name
            self.file = file
            self.fingerprint = fingerprint
            self.expectation = expectation
            self.needsFaultFS = needsFaultFS
            self.demonstrates = demonstrates
        }

        /// The first sentence of a description: up to the first ". " (or all of it), for a table cell.
        public static func firstSentence(_ description: String) -> String? {
            let text = description.split(whereSeparator: \.isNewline).joined(separator: " ").trimmingCharacters(in: .whitespaces)
            guard !text.isEmpty else { return nil }
            if let end = text.range(of: ". ") { return String(text[..<end.lowerBound]) + "." }
            return text
        }
    }

    /// One (scenario, seed) pair of a campaign; the scenario by name (names are unique within a campaign).
    public struct Pair: Sendable, Codable, Hashable, Comparable, CustomStringConvertible {
        public var scenario: String
        public var seed: UInt64
        public init(scenario: String, seed: UInt64) {
            self.scenario = scenario
            self.seed = seed
        }
        public var description: String { "\(scenario) seed \(seed)" }
        public static func < (a: Pair, b: Pair) -> Bool { (a.scenario, a.seed) < (b.scenario, b.seed) }
    }

    public struct ShardInfo: Sendable, Codable, Equatable {
        /// 1-based.
        public var index: Int
        public var count: Int
        public init(index: Int, count: Int) {
            self.index = index
            self.count = count
        }
    }

    public struct FuseInfo: Sendable, Codable, Equatable {
        public var available: Bool
        /// Why not, when not (shown beside every skipped drill).
        public var reason: String?
        public init(available: Bool, reason: String?) {
            self.available = available
            self.reason = reason
        }
    }

    public struct Options: Sendable, Codable, Equatable {
        /// How many times a failing pair was rerun to tell a flaky verdict from a stable one (0: never).
        public var repeatFailing: Int
        public var timeBudgetSeconds: Double?
        public var requireFuse: Bool
        public init(repeatFailing: Int, timeBudgetSeconds: Double?, requireFuse: Bool) {
            self.repeatFailing = repeatFailing
            self.timeBudgetSeconds = timeBudgetSeconds
            self.requireFuse = requireFuse
        }
    }

    /// The campaign's verdict: the exit code and its word, with the counts behind it.
    public struct Outcome: Sendable, Codable, Equatable {
        /// 0 passed, 1 a violation the campaign did not expect, 3 incomplete (pairs skipped or not run).
        public var code: Int32
        public var word: String
        public var ran: Int
        public var asExpected: Int
        public var unexpected: Int
        public var flaky: Int
        public var skipped: Int
        public var notRun: Int
    }
}

/// One pair's result in a suite.
public struct SuiteEntry: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable {
        /// The run happened; see `expectationMet` and `verdicts`.
        case ran
        /// Not runnable here (a FaultFS drill without FUSE); `reason` says why.
        case skipped
        /// Not started: the time budget was spent or the campaign was interrupted; `reason` says which.
        case notRun = "not-run"
    }

    public var scenario: String
    public var seed: UInt64
    public var status: Status
    public var expectation: String
    public var expectationMet: Bool?
    public var reason: String?
    public var seconds: Double
    /// The first run of this pair (its folder relative to the suite folder), when it ran.
    public var run: RunRef?
    public var verdicts: [InvariantVerdict]
    public var errors: [String]
    /// Reruns of a pair whose first run did not show what it expects (`--repeat K`).
    public var reruns: [RunRef]
    /// Invariants whose status differed between identical runs of this pair.
    public var flaky: [String]
    /// For a run that violated an invariant, with `--reproduce N`: how often its finding came back.
    public var reproduction: Reproduction?

    public var pair: SuiteSummary.Pair { SuiteSummary.Pair(scenario: scenario, seed: seed) }
    /// Whether the expectation itself came out differently between identical runs.
    public var isFlaky: Bool { !flaky.isEmpty || reruns.contains { $0.expectationMet != expectationMet } }

    public init(scenario: String, seed: UInt64, status: Status, expectation: String, expectationMet: Bool?, reason: String?,
                seconds: Double, run: RunRef?, verdicts: [InvariantVerdict], errors: [String], reruns: [RunRef], flaky: [String]) {
        self.scenario = scenario
        self.seed = seed
        self.status = status
        self.expectation = expectation
        self.expectationMet = expectationMet
        self.reason = reason
        self.seconds = seconds
        self.run = run
        self.verdicts = verdicts
        self.errors = errors
        self.reruns = reruns
        self.flaky = flaky
    }

    /// A pair that did not run, for `reason`.
    public static func absent(_ pair: SuiteSummary.Pair, expectation: String, status: Status, reason: String) -> SuiteEntry {
        SuiteEntry(scenario: pair.scenario, seed: pair.seed, status: status, expectation: expectation, expectationMet: nil,
                   reason: reason, seconds: 0, run: nil, verdicts: [], errors: [], reruns: [], flaky: [])
    }

    /// The entry for a pair's runs: the first decides the verdicts; reruns only mark what changed as flaky.
    public static func ran(_ first: RunResult, path: String, reruns: [(RunResult, String)]) -> SuiteEntry {
        let verdicts = first.verdicts.map {
            InvariantVerdict(invariant: $0.invariant, status: $0.status, summary: $0.summary, evidence: $0.evidence.first, cause: $0.cause, owner: $0.owner)
        }
        var flaky: [String] = []
        for verdict in first.verdicts {
            let others = reruns.compactMap { rerun in rerun.0.verdicts.first { $0.invariant == verdict.invariant }?.status }
            if others.contains(where: { $0 != verdict.status }) { flaky.append(verdict.invariant) }
        }
        return SuiteEntry(scenario: first.scenario, seed: first.seed, status: .ran, expectation: first.expectation,
                          expectationMet: first.expectationMet, reason: nil,
                          seconds: first.seconds + reruns.reduce(0) { $0 + $1.0.seconds },
                          run: RunRef(first, path: path), verdicts: verdicts, errors: first.errors,
                          reruns: reruns.map { RunRef($0.0, path: $0.1) }, flaky: flaky)
    }
}

/// A run folder inside the suite folder, with what it showed.
public struct RunRef: Sendable, Codable, Equatable {
    public var runID: String
    /// Relative to the suite folder (`runs/<run-id>`), so links survive copying the folder as a CI artifact.
    public var path: String
    public var expectationMet: Bool
    public var violated: [String]
    public var seconds: Double

    public init(_ result: RunResult, path: String) {
        runID = result.runID
        self.path = path
        expectationMet = result.expectationMet
        violated = result.verdicts.filter { $0.status == .violated && !$0.isAppsOwn }.map(\.invariant)
        seconds = result.seconds
    }
}

/// How often a run's finding came back when the same scenario and seed ran again (`--reproduce N`): a finding
/// that depends on a race shows "reproduced 1/3", a deterministic one "reproduced 3/3".
public struct Reproduction: Sendable, Codable, Equatable {
    public var invariant: String
    public var reproduced: Int
    public var times: Int

    public init(invariant: String, reproduced: Int, times: Int) {
        self.invariant = invariant
        self.reproduced = reproduced
        self.times = times
    }

    /// "reproduced 2/3".
    public var text: String { "reproduced \(reproduced)/\(times)" }
}

/// One invariant's verdict in a suite entry (the run's report folder has the full evidence).
public struct InvariantVerdict: Sendable, Codable, Equatable {
    public var invariant: String
    public var status: Verdict.Status
    public var summary: String
    /// The first piece of evidence, for a violation.
    public var evidence: String?
    /// Why, where the run could tell (`Verdict.cause`: the operations a crash dropped).
    public var cause: String?
    /// `app` for the app's own findings (reported apart, never a failure of the program).
    public var owner: Owner?

    /// As a verdict, for the renderers that judge one (JUnit's failure message).
    public var verdict: Verdict { Verdict(invariant, status, summary, owner: owner) }
}
