import Foundation
import Workload

/// Decides which prefix of each writer's committed transactions a store reflects.
///
/// Writers touch disjoint objects, so a consistent snapshot is, per writer, the state after some prefix of its
/// transactions (a transaction in flight may be in or out), with the initial objects unchanged. For each writer
/// the oracle walks its transactions once, keeping how many of its objects differ from the store, and notes every
/// prefix length at which none differ.
public struct Oracle: Sendable {
    public let transactions: [Transaction]
    /// Initial objects (generated before the writers started): identity -> hash.
    public let initial: [UUID: String]
    /// Objects a CloudKit sync brought into the app's store from another device: identity -> who made it
    /// ("device ipad, imported by sync-4"). They are in no writer's history, yet no stranger: the sync put them
    /// there (`cloud-consistent` judges whether they match their records).
    public let imported: [UUID: String]

    public init(transactions: [Transaction], initial: [UUID: String], imported: [UUID: String] = [:]) {
        self.transactions = transactions
        self.initial = initial
        self.imported = imported
    }

    public var writers: [Int] { Array(Set(transactions.map(\.writer))).sorted() }

    /// The oracle of one round of a run (`writers.after_restore: continue`): the transactions of that round's
    /// writers and bulk deletes (`WriterRound`), on top of `base`, the store the round began from (the restored
    /// store, which the restore's own checks have already judged against its backup). Every invariant applies
    /// to a round's stores through it unchanged: "acknowledged before the backup began" counts that round's
    /// commits, and an object of the base is an initial object of the round.
    public func round(_ round: Int, base: [UUID: String]) -> Oracle {
        Oracle(transactions: transactions.filter { WriterRound.round(of: $0.writer) == round }, initial: base, imported: imported)
    }

    /// Objects this history inserts that its initial store already holds: two rounds (or a writer and the store
    /// it began from) sharing an identity, which would let a restored object pass for a new one. Empty by
    /// construction (`WriterRound`); the runner reports any as an error of the run.
    public var collisions: [String] {
        var seen = Set<UUID>()
        var result: [String] = []
        for tx in transactions where tx.outcome != .failed {
            for op in tx.ops where op.op == "insert" && initial[op.id] != nil && seen.insert(op.id).inserted {
                result.append("writer \(tx.writer) tx \(tx.seq) inserts \(op.entity) \(op.id.uuidString), which the store it began from already holds")
            }
        }
        return result
    }

    /// Committed transactions of a writer, with an in-flight one at the end if the writer died during it.
    public func sequence(of writer: Int) -> [Transaction] {
        transactions.filter { $0.writer == writer && $0.outcome != .failed }.sorted { $0.seq < $1.seq }
    }

    public struct Match: Sendable {
        public var writer: Int
        /// Prefix lengths (number of transactions of `sequence(of:)`) the store is consistent with.
        public var prefixes: [Int]
        public var sequenceLength: Int
        /// Objects of this writer whose stored state matches no prefix (for evidence), closest prefix used.
        public var mismatches: [String]
    }

    /// Matches a store state against every writer's history.
    public func match(_ state: StoreState) -> [Match] {
        writers.map { writer in
            let sequence = sequence(of: writer)
            var universe = Set<UUID>()
            for tx in sequence { for op in tx.ops { universe.insert(op.id) } }
            // Before its first transaction a history's objects are as the initial store had them: absent for a
            // writer's own notes, present for the initial notes a bulk delete removes.
            var expected: [UUID: String] = initial.filter { universe.contains($0.key) }
            var mismatched = Set(universe.filter { initial[$0] == nil ? state.notes[$0] != nil : !state.shows(initial[$0], for: $0) })
            var prefixes: [Int] = mismatched.isEmpty ? [0] : []
            var best = (count: mismatched.count, prefix: 0)
            for (index, tx) in sequence.enumerated() {
                for op in tx.ops {
                    expected[op.id] = op.hash
                    if state.shows(expected[op.id], for: op.id) { mismatched.remove(op.id) } else { mismatched.insert(op.id) }
                }
                if mismatched.isEmpty { prefixes.append(index + 1) }
                if mismatched.count < best.count { best = (mismatched.count, index + 1) }
            }
            var evidence: [String] = []
            if prefixes.isEmpty {
                // Describe the differences against the closest prefix.
                var closest: [UUID: String] = initial.filter { universe.contains($0.key) }
                for tx in sequence.prefix(best.prefix) { for op in tx.ops { closest[op.id] = op.hash } }
                for id in universe.sorted(by: { $0.uuidString < $1.uuidString }) where !state.shows(closest[id], for: id) {
                    let want = closest[id].map { "state \($0)" } ?? "absent"
                    let have = state.notes[id].map { "state \($0)" } ?? "absent"
                    evidence.append("writer \(writer) Note \(id.uuidString): expected \(want) after tx \(best.prefix), found \(have) (\(Self.origin(of: state.notes[id], id: id, in: sequence)))")
                    if evidence.count >= 10 { break }
                }
            }
            return Match(writer: writer, prefixes: prefixes, sequenceLength: sequence.count, mismatches: evidence)
        }
    }

    /// Which transaction of `sequence` left the state found for `id` (the last one that wrote that very state,
    /// or deleted the object when it is absent), in words for evidence.
    static func origin(of found: String?, id: UUID, in sequence: [Transaction]) -> String {
        let touching = sequence.filter { $0.ops.contains { $0.id == id } }
        guard let found else {
            if let deletion = touching.last(where: { $0.ops.contains { $0.id == id && $0.op == "delete" } }) { return "deleted by tx \(deletion.seq)" }
            return touching.isEmpty ? "no transaction touched it" : "absent: not yet inserted at that point"
        }
        if let writer = touching.last(where: { $0.ops.contains { $0.id == id && $0.hash == found } }) { return "that state was written by tx \(writer.seq)" }
        return "no transaction of this writer wrote that state (\(touching.count) touched the object, last tx \(touching.last?.seq ?? 0))"
    }

    /// Objects in the store that no history and no initial state explains, and initial objects that changed.
    public func strangers(_ state: StoreState) -> [String] {
        var known = Set(initial.keys).union(imported.keys)
        for tx in transactions { for op in tx.ops { known.insert(op.id) } }
        var result: [String] = []
        for id in state.notes.keys where !known.contains(id) { result.append("Note \(id.uuidString) is in no history and not in the initial store") }
        // Initial objects a history changes (a bulk delete) are held to that history by `match` instead.
        var touched = Set<UUID>()
        for tx in transactions where tx.outcome != .failed { for op in tx.ops { touched.insert(op.id) } }
        for (id, hash) in initial where !touched.contains(id) {
            let now = state.notes[id] ?? state.others[id]
            if now == nil { result.append("initial object \(id.uuidString) is missing") }
            else if !state.shows(hash, for: id) { result.append("initial object \(id.uuidString) changed (\(hash) -> \(now!))") }
        }
        return result.sorted()
    }
}
