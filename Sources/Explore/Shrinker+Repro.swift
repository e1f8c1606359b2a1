import FaultVocabulary
import Foundation
import Scenario

/// The shrinker's candidates for a repro aimed at one call (`try --deep`'s findings, issue 39 point 4): the same
/// Hypothesis-style greedy reduction as `explore`'s (`Shrinker.greedy`), over what such a repro carries. Its fault
/// rule names the program's child (`backup-1`) and its Nth call; so a dropped step renames the children after it
/// (a child's name is its step's kind and index), the writers keep enough transactions for the steps and the
/// commits an interleaving makes while a call is held, and the point moves only to an earlier call of the same
/// kind (`pointCandidates`), never to another kind of call.
extension Shrinker {
    /// Smaller versions of `s`, most reducing first: fewer steps (never one the faults name, `namedSteps`: the
    /// step the finding is about), fewer writer transactions (the steps' `after_commits` scaled with them), fewer
    /// store objects, no attachments.
    public static func reproCandidates(_ s: Scenario) -> [(String, Scenario)] {
        var result: [(String, Scenario)] = []
        func add(_ label: String, _ copy: Scenario?) {
            if let copy, copy != s { result.append((label, copy)) }
        }
        let named = namedSteps(s)
        for index in s.schedule.indices.reversed() where !named.contains(index) {
            add("steps \(s.schedule.count) -> \(s.schedule.count - 1) (dropped schedule[\(index)], \(s.schedule[index].action.rawValue) \(s.schedule[index].strategy))",
                removingStepRenamingChildren(index, from: s))
        }
        // The least value first, then half (Hypothesis's order): one run when the least still fails.
        let transactions = s.writers.transactions
        if s.writers.count > 0, transactions > 1, let least = (1..<transactions).first(where: { $0 >= leastTransactions(s, scaledTo: $0) }) {
            for fewer in Set([least, transactions / 2]).sorted() where fewer < transactions && fewer >= leastTransactions(s, scaledTo: fewer) {
                add("transactions \(transactions) -> \(fewer)", scalingTransactions(s, to: fewer))
            }
        }
        if s.store.from == nil, !s.store.fresh, s.store.objects > leastObjects {
            for fewer in Set([leastObjects, s.store.objects / 2]).sorted() where fewer < s.store.objects {
                var copy = s
                copy.store.objects = fewer
                add("store objects \(s.store.objects) -> \(fewer)", copy)
            }
        }
        if s.store.from == nil, s.store.blobFraction > 0 {
            var copy = s
            copy.store.blobFraction = 0
            add("store attachments -> none (blob fraction \(s.store.blobFraction) -> 0)", copy)
        }
        if s.writers.count > 0, s.writers.blobFraction > 0 {
            var copy = s
            copy.writers.blobFraction = 0
            add("writer attachments -> none (blob fraction \(s.writers.blobFraction) -> 0)", copy)
        }
        return result
    }

    /// The repro with its `rule`'s point moved to each earlier N in `earlier` (ascending: the earliest first), each
    /// an N the caller found to be a call of the same kind on the same class of file.
    public static func pointCandidates(_ s: Scenario, rule: Int, earlier: [Int]) -> [(String, Scenario)] {
        guard s.faults.rules.indices.contains(rule), let n = s.faults.rules[rule].nth else { return [] }
        return earlier.filter { $0 >= 1 && $0 < n }.sorted().map { m in
            var copy = s
            copy.faults.rules[rule].nth = m
            return ("point N \(n) -> \(m)", copy)
        }
    }

    /// What a repro is made of, as its shrink steps count it: "30 transactions, 200 store objects, 2 steps, N=41".
    public static func size(_ s: Scenario, rule: Int?) -> String {
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        var parts = [count(s.writers.count * s.writers.transactions, "transaction")]
        if s.store.from == nil, !s.store.fresh { parts.append(count(s.store.objects, "store object")) }
        if s.store.blobFraction > 0 || s.writers.blobFraction > 0 {
            parts.append("attachments (store \(s.store.blobFraction), writers \(s.writers.blobFraction))")
        }
        parts.append(count(s.schedule.count, "step"))
        if let rule, s.faults.rules.indices.contains(rule), let n = s.faults.rules[rule].nth { parts.append("point N=\(n)") }
        return parts.joined(separator: ", ")
    }

    /// The fewest objects a shrunk repro's generated store is given: enough for the writers' updates, deletes and
    /// links to find objects of each entity.
    static let leastObjects = 10

    /// The steps the faults are about: the crash's `during_step`, a rule's `during_step`, and the step whose child a
    /// rule's `actor` names (`backup-1` is step 1's).
    static func namedSteps(_ s: Scenario) -> Set<Int> {
        var steps = Set(s.faults.rules.compactMap(\.duringStep) + [s.faults.crash?.duringStep].compactMap { $0 })
        for rule in s.faults.rules {
            guard let actor = rule.actor else { continue }
            steps.formUnion(s.schedule.indices.filter { "\(s.schedule[$0].action.rawValue)-\($0)" == actor })
        }
        return steps
    }

    /// The scenario without step `index` (`removingStep`), with the children of the later steps renamed in the
    /// rules that name them (`backup-1` becomes `backup-0`: a step's child is named by its kind and its index);
    /// nil when another step waits on or runs during the dropped one, or the crash is the dropped step's.
    static func removingStepRenamingChildren(_ index: Int, from s: Scenario) -> Scenario? {
        guard !s.schedule.contains(where: { $0.afterStep == index || $0.duringStep == index }),
              s.faults.crash?.duringStep != index else { return nil }
        var copy = removingStep(index, from: s)
        for step in copy.schedule.indices {
            if let after = copy.schedule[step].afterStep, after > index { copy.schedule[step].afterStep = after - 1 }
            if let during = copy.schedule[step].duringStep, during > index { copy.schedule[step].duringStep = during - 1 }
        }
        var renamed: [String: String] = [:]
        for old in s.schedule.indices where old > index {
            let kind = s.schedule[old].action.rawValue
            renamed["\(kind)-\(old)"] = "\(kind)-\(old - 1)"
        }
        for rule in copy.faults.rules.indices {
            if let actor = copy.faults.rules[rule].actor, let name = renamed[actor] { copy.faults.rules[rule].actor = name }
        }
        return copy
    }

    /// The scenario with `transactions` per writer, each step's `after_commits` scaled by the same ratio (a step
    /// after 20 of 30 commits comes after 10 of 15), so every step still comes; a step that came after some
    /// commits still comes after one at least. At 0 it would run while the writer process is still starting (its
    /// open of the store is no turn of the `turns` scheduler), and what the program copies would depend on how far
    /// that open had got: the same repro then copied 14 blocks in one run and 18 in the next, and its Nth write was
    /// another call (`TryDeepShrinkTests`). After the first commit the writer waits for its turns, as in the search.
    static func scalingTransactions(_ s: Scenario, to transactions: Int) -> Scenario {
        var copy = s
        copy.writers.transactions = transactions
        for index in copy.schedule.indices {
            if let after = copy.schedule[index].afterCommits, after > 0 {
                copy.schedule[index].afterCommits = max(1, after * transactions / max(1, s.writers.transactions))
            }
        }
        if let after = copy.faults.crash?.afterCommits {
            copy.faults.crash?.afterCommits = max(1, after * transactions / max(1, s.writers.transactions))
        }
        return copy
    }

    /// The fewest transactions per writer a shrunk repro of `s` can have with `transactions`: enough for the latest
    /// step's scaled `after_commits` and the commits a `hold` rule's `while_held` makes while its call is held
    /// (fewer, and the held call would wait for commits no writer makes), and one turn more, so the writer is still
    /// running, waiting for its turn, when the step comes, as it was in the search (30 transactions, the backups
    /// after 10 and 20). A writer with no turn left ends while the step runs, and its close merges its `-wal` into
    /// the database: a copy of the database alone then had every commit in one run and missed them in the next
    /// (the tutorial's `cp` script's `wal-content-carried`, `TryDeepShrinkTests`). 1 when no step waits for commits.
    static func leastTransactions(_ s: Scenario, scaledTo transactions: Int) -> Int {
        let held = s.faults.rules.reduce(0) { sum, rule in
            let commits = (rule.whileHeld ?? []).reduce(0) { total, work in
                if case .commit(let n) = work { return total + n }
                return total
            }
            return sum + commits
        }
        let latest = scalingTransactions(s, to: transactions).schedule.compactMap(\.afterCommits).max() ?? 0
        return (latest + held + s.writers.count - 1) / max(1, s.writers.count) + 1
    }
}
