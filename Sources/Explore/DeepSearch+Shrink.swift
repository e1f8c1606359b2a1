import Checks
import FaultFS
import FaultVocabulary
import Foundation
import Reporting
import Runner
import Scenario

/// The smallest repro (issue 39, point 4): once the search is done, each finding's repro is shrunk with the one
/// shrinker (`Shrinker.greedy` over `Shrinker.reproCandidates`): fewer steps, fewer writer transactions, fewer store
/// objects and attachments, then the earliest point (the smallest N at which the walk's fault lands on a call of the
/// same kind on the same class of file, from a count of the shrunk repro's calls). A candidate is kept only when its
/// run fails the same way: the same invariant violated and, for a walk, the walk's rule fired on a call of the same
/// operation and file class (the op log's, `FileClass`); a candidate whose calls moved is aimed again at the same
/// call first. Every repro runs under the `turns` scheduler, the crash the moment the program reports success
/// included (at the step's end, `at_end`, with no writer turn beside it: `crashAfterSuccessScenario`), so one run
/// decides (the same seed, the same interleaving). The written repro is then replayed from its file as
/// `lifeboat replay` runs it, three times; if any replay does not show the same finding, the shrink steps back to
/// the reduction before it, and at worst the search's own repro stays. Each finding's `shrink` says what was shrunk,
/// from what, and how it replayed.
extension DeepSearch {
    /// What shrinking did to one finding's repro.
    public struct Shrink: Sendable, Codable, Equatable {
        /// The repro's size before and after (`Shrinker.size`): "30 transactions, 200 store objects, 2 steps, point N=3".
        public var original: String
        public var shrunk: String
        /// Each reduction kept, in order ("transactions 30 -> 15", "store objects 200 -> 100", "point N 41 -> 7").
        public var steps: [String]
        /// Runs of candidates (the point's probe included) and the seconds the whole shrink took.
        public var runs: Int
        public var seconds: Double
        /// Why it stopped with candidates left ("the budget of 16 runs ran out", "interrupted"); nil when no smaller
        /// candidate failed the same way.
        public var stopped: String?
        /// The replays of the written repro and how many showed the same finding (0 of 0 when nothing was shrunk).
        public var replayed: Int
        public var reproduced: Int
        /// The search's own repro, kept beside the shrunk one.
        public var originalRepro: String?
        /// The call the shrunk repro's fault lands on ("rename /backups/1-1/Library.sqlite.partial by backup-0
        /// (python3)"): of the same kind, on the same class of file, as the finding's own; nil for a crash after success.
        public var call: String?
    }

    /// Candidate runs per finding when the caller names none (`try --deep --shrink-runs`).
    public static let defaultShrinkRuns = 16
    /// Replays of a shrunk repro from its file before it is kept, and how many reductions a shrink steps back
    /// when the smallest does not replay every time (each costs as many replays) before the search's own repro stays.
    static let shrinkReplays = 3
    static let shrinkStepsBack = 2

    /// Shrinks `finding`'s repro in place (the search's own kept as `<name>.original.yaml`) and records how.
    /// `walk` is the finding's walk, `hit` the call its fault fired on in the search (nil for a crash after success).
    func shrink(_ finding: inout Finding, target: Target, walk: Walk, hit: FaultHit?, budget: Int,
                progress: @escaping @Sendable (String) -> Void) throws {
        guard budget > 0, let reproPath = finding.repro, let invariant = finding.violated.first else { return }
        let started = Date()
        let repro = URL(fileURLWithPath: reproPath)
        let folder = repro.deletingLastPathComponent().appendingPathComponent("shrink-" + repro.deletingPathExtension().lastPathComponent)
        var settings = settings
        settings.reportsRoot = folder.appendingPathComponent("runs")
        settings.progress = nil
        let written = try ScenarioParser.parse(file: repro)
        let start = Self.searchScenario(of: walk, finding: finding, target: target, crashAfterSuccess: hit == nil)
        let rule = hit == nil ? nil : start.faults.rules.count - 1
        let call = hit.map(CallKind.init)

        /// One run of a candidate: whether it failed as the finding did, and the call the walk's fault fired on. A
        /// candidate the runner refuses (a restore with no backup left before it) fails no way at all.
        func failsTheSameWay(_ candidate: Scenario, file: String, settings: ScenarioRunner.Settings) throws -> (Bool, FaultHit?) {
            let run: ScenarioRuns.Outcome
            do { run = try ScenarioRuns.run(candidate, file: file, settings: settings) } catch { return (false, nil) }
            let same = Self.same(run.result, scenario: candidate, invariant: invariant, rule: rule, call: call)
            return (same, rule.flatMap { run.result.faults.forRule($0)?.hit })
        }
        // The repro kept so far and the walk's calls in it, in order (from a counting run, once they are needed).
        var current = start
        var currentCalls: [Call]?
        var spent = 0
        func stillFails(_ label: String, _ candidate: Scenario) throws -> (fails: Bool, runs: Int, instead: (String, Scenario)?) {
            var runs = 0
            defer { spent += runs }
            // Under `turns` one run decides: the same seed, the same interleaving.
            runs += 1
            let (same, hit) = try failsTheSameWay(candidate, file: file, settings: settings)
            if same { return (true, runs, nil) }
            // A smaller store or fewer transactions move the program's calls: when the fault no longer lands on
            // a call of the same kind and class of file, it is aimed again at the same call in the candidate
            // (`reaimed`, from the two counting runs) and the candidate runs once more, if the budget has room.
            guard let rule, let call, hit.map({ CallKind($0) != call }) ?? true,
                  let n = candidate.faults.rules[rule].nth, n == current.faults.rules[rule].nth, spent + runs + 3 <= budget
            else { return (false, runs, nil) }
            if currentCalls == nil {
                runs += 1
                currentCalls = (try? walkCalls(of: current, rule: rule, folder: folder)) ?? []
            }
            runs += 1
            let calls = (try? walkCalls(of: candidate, rule: rule, folder: folder)) ?? []
            guard let m = Self.reaimed(n, from: currentCalls ?? [], to: calls, call: call), m != n else { return (false, runs, nil) }
            var aimed = candidate
            aimed.faults.rules[rule].nth = m
            runs += 1
            guard try failsTheSameWay(aimed, file: file, settings: settings).0 else { return (false, runs, nil) }
            return (true, runs, ("\(label) (point N \(n) -> \(m))", aimed))
        }
        let label = "shrink \(finding.walk), N=\(finding.n)"
        let say: (String, Scenario) -> Void = { step, kept in
            progress("\(label): \(step) still violates \(invariant)")
            current = kept
            currentCalls = nil
        }
        var shrunk = try Shrinker.greedy(start, candidates: Shrinker.reproCandidates, budget: budget, retryingRejected: false,
                                         stop: { Interruption.requested }, accepted: say, stillFails: stillFails)
        // The earliest point, once the repro is small: the walk's calls in it, in order, and the earlier ones of the
        // same kind on the same class of file are tried, the earliest first.
        if let rule, let call, !shrunk.budgetSpent, !Interruption.requested, shrunk.runs < budget {
            if currentCalls == nil {
                shrunk.runs += 1
                currentCalls = (try? walkCalls(of: shrunk.scenario, rule: rule, folder: folder)) ?? []
            }
            let earlier = Self.earlierPoints(in: currentCalls ?? [], ops: walk.ops, call: call)
            let list = Shrinker.pointCandidates(shrunk.scenario, rule: rule, earlier: earlier)
            let from = shrunk.scenario
            let point = try Shrinker.greedy(from, candidates: { $0 == from ? list : [] }, budget: budget - shrunk.runs,
                                            stop: { Interruption.requested }, accepted: say, stillFails: stillFails)
            shrunk.runs += point.runs
            shrunk.budgetSpent = point.budgetSpent
            shrunk.scenario = point.scenario
            shrunk.steps += point.steps
            shrunk.trail += point.trail.dropFirst()
        }
        var record = Shrink(original: Shrinker.size(start, rule: rule), shrunk: Shrinker.size(start, rule: rule), steps: [],
                            runs: shrunk.runs, seconds: 0,
                            stopped: Interruption.requested ? "interrupted" : shrunk.budgetSpent ? "the budget of \(budget) runs ran out" : nil,
                            replayed: 0, reproduced: 0, originalRepro: nil)
        defer {
            record.seconds = Date().timeIntervalSince(started)
            finding.shrink = record
        }
        guard shrunk.trail.count > 1 else { return }
        let original = repro.deletingPathExtension().appendingPathExtension("original.yaml")
        try? FileManager.default.removeItem(at: original)
        try FileManager.default.copyItem(at: repro, to: original)
        record.originalRepro = original.path
        // The smallest kept that replays from its file the same way every time; a step back for each that does not.
        for (accepted, candidate) in Array(zip(shrunk.steps.indices, shrunk.trail.dropFirst())).reversed().prefix(Self.shrinkStepsBack + 1) {
            if Interruption.requested { break }
            let steps = Array(shrunk.steps[...accepted])
            let size = Shrinker.size(candidate, rule: rule)
            try writeShrunkRepro(candidate, name: written.name, finding: finding, rule: rule, steps: steps,
                                 original: record.original, size: size, to: repro)
            var replaySettings = settings
            replaySettings.reportsRoot = folder.appendingPathComponent("replays")
            let replay = try ScenarioParser.parse(file: repro)
            var reproduced = 0
            var ran = 0
            var calls: [FaultHit] = []
            for _ in 0..<Self.shrinkReplays where !Interruption.requested {
                ran += 1
                let (same, hit) = try failsTheSameWay(replay, file: repro.path, settings: replaySettings)
                if same { reproduced += 1 }
                if let hit { calls.append(hit) }
            }
            record.replayed += ran
            if reproduced == Self.shrinkReplays {
                record.reproduced = reproduced
                record.steps = steps
                record.shrunk = size
                // The call the shrunk repro's fault lands on (the finding keeps the search's N and call).
                record.call = calls.first?.summary
                progress("shrink \(finding.walk): \(steps.count) step(s), \(record.original) -> \(size); \(reproduced) of \(ran) replays the same")
                return
            }
            progress("shrink \(finding.walk): after \(steps.last ?? "") the repro replayed \(reproduced) of \(ran); back one reduction")
        }
        // Nothing smaller replayed every time: the search's own repro stays.
        try? FileManager.default.removeItem(at: repro)
        try FileManager.default.copyItem(at: original, to: repro)
        record.originalRepro = nil
        try? FileManager.default.removeItem(at: original)
        record.stopped = "no smaller repro replayed the same finding \(Self.shrinkReplays) of \(Self.shrinkReplays) times"
    }

    /// The line a finding's shrink gets on the terminal and the page: "shrunk from 30 transactions, 200 store
    /// objects, 2 steps, point N=3 to 3 transactions, 25 store objects, 1 step, point N=2 (transactions 30 -> 15;
    /// ...) in 14 runs, 41 s; replayed the same 3 of 3"; or why it was not; nil when it was not tried.
    public static func shrinkLine(_ shrink: Shrink?) -> String? {
        guard let shrink else { return nil }
        let cost = "\(shrink.runs) run\(shrink.runs == 1 ? "" : "s"), \(Int(shrink.seconds.rounded())) s"
        guard !shrink.steps.isEmpty else {
            if shrink.runs == 0, let why = shrink.stopped { return "\(why) (\(shrink.original))" }
            return "not shrunk (\(shrink.original)): " + (shrink.stopped ?? "no smaller candidate failed the same way") + " (\(cost))"
        }
        return "shrunk from \(shrink.original) to \(shrink.shrunk) (" + shrink.steps.joined(separator: "; ") + ") in \(cost); replayed the same \(shrink.reproduced) of \(shrinkReplays)"
            + (shrink.replayed > shrinkReplays ? " (after \(shrink.replayed - shrinkReplays) replays of smaller ones that did not)" : "")
            + (shrink.steps.contains { $0.hasPrefix("point") } ? shrink.call.map { "; its fault now at \($0)" } ?? "" : "")
            + (shrink.stopped.map { "; stopped: \($0)" } ?? "") + (shrink.originalRepro.map { "; the search's own repro: \($0)" } ?? "")
    }

    /// The scenario the search ran for `finding`: the walk's base with the walk's rule at N, or the crash the moment
    /// the program reported success.
    static func searchScenario(of walk: Walk, finding: Finding, target: Target, crashAfterSuccess: Bool) -> Scenario {
        if crashAfterSuccess, case .crash(let mode) = walk.action { return Self.crashAfterSuccessScenario(target, mode: mode) }
        var base = target.base
        base.expect = .pass
        return FaultWalk.scenario(base, config: Self.config(of: walk, file: "", actor: target.actor), n: finding.n)
    }

    /// Whether a run failed as the finding did: `invariant` violated, no environment error, the program returned
    /// in time, and (for a walk) the walk's `rule` fired on a call of `call`'s operation and class of file.
    static func same(_ result: RunResult, scenario: Scenario, invariant: String, rule: Int?,
                     call: CallKind?) -> Bool {
        guard result.environmentError == nil, FaultWalk.hungLimit(result, scenario: scenario) == nil,
              result.verdicts.contains(where: { $0.invariant == invariant && $0.status == .violated }) else { return false }
        guard let rule, let call else { return true }
        guard let fired = result.faults.forRule(rule), fired.fired > 0, let hit = fired.hit else { return false }
        return CallKind(hit) == call
    }

    static func fileClass(of hit: FaultHit) -> FileClass { CallKind(hit).fileClass }

    /// The walk's calls in `scenario`, in order: one run of it with its `rule` firing a `delay 0` at every one
    /// of them (the probe's way of counting), its op log read.
    func walkCalls(of scenario: Scenario, rule: Int, folder: URL) throws -> [Call] {
        var counting = scenario
        counting.faults.rules[rule].nth = nil
        counting.faults.rules[rule].action = .delay(0)
        counting.faults.rules[rule].whileHeld = nil
        var settings = settings
        settings.reportsRoot = folder.appendingPathComponent("counting")
        settings.progress = nil
        settings.keepScratch = true
        let run = try ScenarioRuns.run(counting, file: file, settings: settings)
        guard let scratch = run.scratch else { return [] }
        defer { try? FileManager.default.removeItem(at: scratch) }
        return Self.probedCalls(opLog: scratch.appendingPathComponent("faultfs.oplog")) ?? []
    }

    static func matches(_ each: Call, _ call: CallKind) -> Bool { CallKind(each) == call }

    /// The Ns (counting the calls of the walk's `ops` in `calls`, from 1) of `call`'s kind and class of file, of
    /// each run of such calls to one file the first and the last (`representatives`, as the walk groups its writes).
    static func earlierPoints(in calls: [Call], ops: [FaultOp], call: CallKind) -> [Int] {
        let walked = calls.filter { ops.contains($0.op) }
        guard !walked.isEmpty else { return [] }
        let chosen = Set(representatives(of: calls, ops: ops, count: walked.count) ?? Array(1...walked.count))
        return walked.indices.filter { matches(walked[$0], call) && chosen.contains($0 + 1) }.map { $0 + 1 }
    }

    /// Point `n` of `old` (the walk's calls in order, those only: `walkCalls`) aimed at the same call in `new`: the call of the same kind
    /// and class of file with the same rank among those calls, counted from the nearer end (the last write of a
    /// copy stays the last when the store is smaller); nil when `n` is not such a call or `new` has too few.
    static func reaimed(_ n: Int, from old: [Call], to new: [Call], call: CallKind) -> Int? {
        let before = old.indices.filter { matches(old[$0], call) }
        let after = new.indices.filter { matches(new[$0], call) }
        guard let rank = before.firstIndex(of: n - 1) else { return nil }
        let fromEnd = before.count - 1 - rank
        let index = rank <= fromEnd ? rank : after.count - 1 - fromEnd
        return after.indices.contains(index) ? after[index] + 1 : nil
    }

    /// The shrunk repro at `url` (`RunReports.writeRepro`), headed by what was shrunk, and saying it in its
    /// description too.
    func writeShrunkRepro(_ scenario: Scenario, name: String, finding: Finding, rule: Int?, steps: [String], original: String,
                          size: String, to url: URL) throws {
        var repro = scenario
        let shrunk = "Shrunk from \(original) to \(size): " + steps.joined(separator: "; ") + "."
        repro.description = (scenario.description.isEmpty ? "" : scenario.description + ". ") + shrunk
        let point = rule.flatMap { scenario.faults.rules[$0].nth }.map { "N=\($0)" } ?? "N=\(finding.n)"
        try RunReports.writeRepro(repro, file: file, violated: finding.violated.first ?? "", name: name,
                                  note: "try --deep \(finding.walk), \(point) (shrunk)", comments: ["Shrunk from \(original):"] + steps.map { "  \($0)" },
                                  to: url)
    }
}
