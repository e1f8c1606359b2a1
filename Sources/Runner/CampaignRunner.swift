import Foundation
import Reporting
import Scenario

/// Runs (scenario, seed) pairs one after another and collects a suite entry per pair: the library behind
/// `lifeboat run --seeds`, for any command that needs "run these pairs, give me the results".
///
/// Per pair: skipped when it needs FaultFS and FUSE is unavailable; not run once the time budget is spent or
/// after an interruption; else one run, and when that run did not show what the scenario expects, up to
/// `repeatFailing` identical reruns, whose verdicts only mark the pair flaky where they differ (the first run
/// decides the verdict, so a flaky failure still fails the campaign).
public final class CampaignRunner: Sendable {
    public struct Options: Sendable {
        public var repeatFailing = 0
        /// Replay each run that violated an invariant this many more times and record how often its finding came
        /// back (`SuiteEntry.reproduction`); 0 (the default, and CI's) replays nothing.
        public var reproduce = 0
        /// Seconds after which no new run starts (one already running finishes).
        public var timeBudget: Double?
        public var fuse = SuiteSummary.FuseInfo(available: true, reason: nil)
        /// Runs at a time (`RunLoop`); the entries come back in the slice's order at any value.
        public var jobs = 1
        public init() {}
    }

    /// What the caller sees as the campaign goes (the CLI prints; a test may record).
    public struct Hooks: Sendable {
        /// Before a run: the pair, its position in the slice (0-based), the slice's size and the attempt (0 first).
        public var willRun: (@Sendable (Campaign.Pair, Int, Int, Int) -> Void)?
        /// After a run, with its result and report folder.
        public var didRun: (@Sendable (Campaign.Pair, RunResult, RunDirectory, Int) -> Void)?
        /// After each pair is decided (ran, skipped or not run), with every entry so far.
        /// Called as pairs finish, in the order they finish (the slice's order at `jobs` 1).
        public var didFinishPair: (@Sendable (SuiteEntry, [SuiteEntry]) -> Void)?
        public init() {}
    }

    public let campaign: Campaign
    public let settings: ScenarioRunner.Settings
    public let options: Options
    /// The run folders' path relative to the suite folder (`runs`), as entries record it.
    public let runsPath: String

    /// `settings.reportsRoot` is where run folders go (inside the suite folder, at `runsPath`).
    public init(campaign: Campaign, settings: ScenarioRunner.Settings, runsPath: String = "runs", options: Options) {
        self.campaign = campaign
        self.settings = settings
        self.runsPath = runsPath
        self.options = options
    }

    /// Runs `pairs` (a slice of the campaign; pairs of other campaigns are ignored) and returns one entry per
    /// pair, in order. Throws only when a run cannot be set up at all (the lifeboat executable is missing), not
    /// for what a run finds.
    public func run(_ pairs: [Campaign.Pair], hooks: Hooks = Hooks()) throws -> [SuiteEntry] {
        let started = Date()
        let budget = options.timeBudget
        @Sendable func budgetSpent() -> Bool {
            budget.map { Date().timeIntervalSince(started) >= $0 } ?? false
        }
        let mine = pairs.filter { campaign.drill(for: $0) != nil }
        // The entries as they finish, for `didFinishPair` and the budget's message.
        let finished = Shared<[SuiteEntry]>([])
        return try RunLoop(jobs: options.jobs).map(mine) { pair, position -> SuiteEntry in
            guard let drill = self.campaign.drill(for: pair) else { preconditionFailure("filtered above") }
            let expectation = drill.scenario.expect.description
            let entry: SuiteEntry
            if Interruption.requested {
                entry = .absent(pair, expectation: expectation, status: .notRun, reason: "the campaign was interrupted first")
            } else if budgetSpent(), let budget {
                entry = .absent(pair, expectation: expectation, status: .notRun,
                                reason: String(format: "the time budget of %.0f s was spent after %d run(s)", budget, finished.withLock { $0.filter { $0.status == .ran }.count }))
            } else if drill.scenario.faults.needsFaultFS, !self.options.fuse.available {
                entry = .absent(pair, expectation: expectation, status: .skipped,
                                reason: "needs FaultFS, and FUSE is unavailable: \(self.options.fuse.reason ?? "unknown reason")")
            } else {
                hooks.willRun?(pair, position, mine.count, 0)
                let (first, setupError) = try self.runOnce(drill, pair: pair, attempt: 0, hooks: hooks)
                let firstInterrupted = Interruption.requested
                var reruns: [(RunResult, String)] = []
                if let (result, _) = first, !result.expectationMet, result.environmentError == nil, self.options.repeatFailing > 0 {
                    for attempt in 1...self.options.repeatFailing {
                        if budgetSpent() || Interruption.requested { break }
                        hooks.willRun?(pair, position, mine.count, attempt)
                        let (again, _) = try self.runOnce(drill, pair: pair, attempt: attempt, hooks: hooks)
                        // A rerun cut short by SIGINT/SIGTERM says nothing about flakiness.
                        if let again, !Interruption.requested { reruns.append(again) }
                    }
                }
                if let (_, path) = first, firstInterrupted {
                    // A run cut short by SIGINT/SIGTERM has no verdict worth counting.
                    entry = .absent(pair, expectation: expectation, status: .notRun, reason: "interrupted during its run (partial report in \(path))")
                } else if let (result, path) = first, let reason = result.environmentError {
                    // A program that could not start: nothing was judged, the pair is not run (exit 3), with the run's report.
                    var notRun = SuiteEntry.ran(result, path: path, reruns: [])
                    notRun.status = .notRun
                    notRun.expectationMet = nil
                    notRun.reason = "environment error: \(reason)"
                    entry = notRun
                } else if let (result, path) = first {
                    var ran = SuiteEntry.ran(result, path: path, reruns: reruns)
                    if self.options.reproduce > 0, !budgetSpent() {
                        ran.reproduction = try FindingReplay.rate(of: result, scenario: drill.scenario, file: drill.file.path,
                                                                  times: self.options.reproduce, settings: self.settings)
                    }
                    entry = ran
                } else {
                    entry = SuiteEntry(scenario: pair.scenario, seed: pair.seed, status: .ran, expectation: expectation, expectationMet: false,
                                       reason: nil, seconds: 0, run: nil, verdicts: [], errors: setupError.map { [$0] } ?? [],
                                       reruns: [], flaky: [])
                }
            }
            let soFar = finished.withLock { $0.append(entry); return $0 }
            hooks.didFinishPair?(entry, soFar)
            return entry
        }
    }

    /// One run, with the reason it could not start when it threw before it had a result (a mount that failed).
    func runOnce(_ drill: Campaign.Drill, pair: Campaign.Pair, attempt: Int, hooks: Hooks) throws -> ((RunResult, String)?, String?) {
        do {
            let run = try ScenarioRuns.run(drill.scenario, file: drill.file.path, settings: self.settings)
            let (result, directory) = (run.result, run.directory)
            hooks.didRun?(pair, result, directory, attempt)
            return ((result, self.runsPath.isEmpty ? directory.id : "\(self.runsPath)/\(directory.id)"), nil)
        } catch {
            return (nil, "\(pair): the run could not start: \(error)")
        }
    }
}
