import Foundation
import Scenario

/// Smaller versions of a failing scenario, most reducing first: fewer writers, fewer transactions, fewer steps,
/// earlier triggers, smaller stores and blobs, fewer faults. The explorer keeps the first one that still fails
/// the same way and starts over from it, until none does (Hypothesis-style greedy shrinking).
public enum Shrinker {
    public static func candidates(_ s: Scenario) -> [(String, Scenario)] {
        var result: [(String, Scenario)] = []
        func add(_ label: String, _ change: (inout Scenario) -> Void) {
            var copy = s
            change(&copy)
            if copy != s { result.append((label, copy)) }
        }
        if s.writers.count > 1 { add("writers \(s.writers.count) -> \(s.writers.count - 1)") { $0.writers.count -= 1 } }
        if s.writers.transactions > 10 { add("transactions \(s.writers.transactions) -> \(s.writers.transactions / 2)") { $0.writers.transactions /= 2 } }
        for index in s.schedule.indices.reversed() where s.schedule.count > 1 {
            add("drop schedule[\(index)] (\(s.schedule[index].action.rawValue) \(s.schedule[index].strategy))") { $0 = removingStep(index, from: $0) }
        }
        for index in s.schedule.indices {
            if s.schedule[index].times > 1 { add("schedule[\(index)] times -> 1") { $0.schedule[index].times = 1; $0.schedule[index].everyCommits = nil } }
            if let after = s.schedule[index].afterCommits, after > 0 {
                add("schedule[\(index)] after_commits \(after) -> \(after / 2)") { $0.schedule[index].afterCommits = after / 2 }
            }
        }
        if s.store.objects > 20 { add("store objects \(s.store.objects) -> \(s.store.objects / 2)") { $0.store.objects /= 2 } }
        if s.writers.blobFraction > 0 { add("writer blobs -> none") { $0.writers.blobFraction = 0 } }
        if s.store.blobFraction > 0 { add("store blobs -> none") { $0.store.blobFraction = 0 } }
        if s.store.blobSize > 110 * 1024 { add("store blob size -> 110KiB") { $0.store.blobSize = 110 * 1024 } }
        for index in s.faults.rules.indices.reversed() { add("drop fault rule \(index)") { $0.faults.rules.remove(at: index) } }
        if let after = s.faults.crash?.afterCommits, after > 1 { add("crash after_commits \(after) -> \(after / 2)") { $0.faults.crash?.afterCommits = after / 2 } }
        if s.writers.rate > 0 { add("writer rate -> unthrottled") { $0.writers.rate = 0 } }
        return result
    }

    /// The scenario without step `index`, with the indices that point into the schedule renumbered.
    static func removingStep(_ index: Int, from s: Scenario) -> Scenario {
        var copy = s
        copy.schedule.remove(at: index)
        copy.faults.rules = copy.faults.rules.compactMap { rule in
            var rule = rule
            guard let step = rule.duringStep else { return rule }
            if step == index { return nil }
            if step > index { rule.duringStep = step - 1 }
            return rule
        }
        if let step = copy.faults.crash?.duringStep {
            if step == index { copy.faults.crash = nil } else if step > index { copy.faults.crash?.duringStep = step - 1 }
        }
        return copy
    }
}
