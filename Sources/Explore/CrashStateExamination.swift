import Checks
import Foundation
import GRDB
import StoreCheck
import StoreModel

/// What checking one recovered crash state found, split in two: the part that depends on the state's bytes only
/// (integrity, bookkeeping, which prefix of each writer's history the store shows) and the part that depends on
/// the persistence point as well (which transactions were acknowledged before it). The first part is the costly
/// one (two opens, `integrity_check`, every object and external file read), so a state whose recovered content
/// was already examined reuses it; the second is recomputed for every state, which keeps every verdict what a
/// fresh check of that state gives.
struct CrashStateExamination: Sendable, Codable, Equatable {
    /// The most prefix transactions of one writer the store shows, nil when it shows no prefix at all.
    struct Reflected: Sendable, Codable, Equatable {
        var writer: Int
        var prefix: Int?
    }

    /// Problems found without reference to time (integrity, bookkeeping, unreadable); when any, nothing else counts.
    var problems: [String] = []
    /// Per writer, in the oracle's order.
    var reflected: [Reflected] = []
    /// Set when the main file is missing or shorter than one page beside a `-wal` with committed frames, with
    /// what opening a copy of the state did (`CrashStateShortMain`).
    var shortMain: CrashStateShortMain?

    /// Examines the store at `database` as SQLite recovers it: the verifier's serious findings, else the oracle's
    /// prefixes. A missing or empty database file opens as a new, empty store (Core Data creates one there, and
    /// SQLite deletes a `-wal` it finds beside it: `shortMain` says what a private copy's open did), so every
    /// writer shows none of its transactions and any acknowledged before the point are lost.
    static func examine(_ database: URL, oracle: Oracle) -> CrashStateExamination {
        var result = CrashStateExamination()
        result.shortMain = CrashStateShortMain.observe(database)
        let empty = !FileManager.default.fileExists(atPath: database.path) || (StoreFiles.size(database) ?? 0) == 0
        if empty, let short = result.shortMain, short.tablesAfterOpen > 0 || short.openError != nil {
            // Not what SQLite 3.40.1 does: say so rather than judge a store this check cannot read.
            result.problems.append("cannot judge: \(short.description)")
            return result
        }
        if empty { return result.opensAsNewStore(oracle) }
        do {
            let report = try StoreVerifier.verify(database)
            let serious: Set<Finding.Kind> = [.integrity, .bookkeeping, .unreadable, .danglingRelationship, .duplicateIdentity, .metadata]
            result.problems = report.violations.filter { serious.contains($0.kind) }.prefix(3).map(\.description)
            // A database with no tables yet (a fresh store's journal-mode switch wrote page 1, the commit of its
            // schema did not survive) is no Core Data store to the verifier, but Core Data's next
            // addPersistentStore makes a new store of it, as of an empty file. Counted only when the verifier
            // objects, so a store with tables costs no second copy.
            if !result.problems.isEmpty, tableCount(database) == 0 {
                result.problems = []
                return result.opensAsNewStore(oracle)
            }
            guard result.problems.isEmpty else { return result }
            let state = try StoreState.read(database)
            result.reflected = oracle.match(state).map { Reflected(writer: $0.writer, prefix: $0.prefixes.max()) }
        } catch {
            result.problems.append("cannot read: \(error)")
        }
        return result
    }

    /// The same examination with `path` (a worker's own state directory) named as `name` (the directory one
    /// worker uses) in its messages, so a state's problems read the same whichever worker examined it.
    func naming(_ path: String, as name: String) -> CrashStateExamination {
        var result = self
        result.problems = problems.map { $0.replacingOccurrences(of: path, with: name) }
        result.shortMain?.openError = shortMain?.openError?.replacingOccurrences(of: path, with: name)
        return result
    }

    /// No file, an empty one or one with no tables: the app's next open starts a new, empty store, so every
    /// writer shows none of its transactions (any acknowledged before the point are lost) and initial objects
    /// are gone.
    private func opensAsNewStore(_ oracle: Oracle) -> CrashStateExamination {
        var result = self
        result.reflected = oracle.writers.map { Reflected(writer: $0, prefix: 0) }
        if !oracle.initial.isEmpty {
            result.problems.append("the store opens as a new, empty one: its \(oracle.initial.count) initial objects are gone")
        }
        return result
    }

    /// Tables of the store as SQLite recovers it (on a private copy), nil when it cannot be read.
    static func tableCount(_ database: URL) -> Int? {
        try? StoreState.onRecoveredCopy(of: database) { copy in
            let queue = try PlainConnection.open(copy, readOnly: true)
            defer { try? queue.close() }
            return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") ?? 0 }
        }
    }

    /// The problems of this state at a persistence point of `time` (the history's clock): a writer whose state is
    /// no prefix of its history, or one missing a transaction acknowledged before the point. From the start of a
    /// restore on (`restores`), the store the restore was given back is right too, whatever was acknowledged before
    /// it: a restore rolls the store back on purpose. Once the restore has reported success, only that store is
    /// (the old one coming back is the restore's loss, `restore-durable`).
    func problems(at time: Double, acknowledgements: CrashStateAcknowledgements, restores: [CrashStateRestore] = []) -> [String] {
        guard problems.isEmpty else { return problems }
        if let restore = restores.last(where: { $0.start <= time }) {
            if reflected == restore.backup { return [] }
            if let end = restore.end, end <= time {
                func prefixes(_ list: [Reflected]) -> String {
                    list.map { "writer \($0.writer): \($0.prefix.map(String.init) ?? "no prefix")" }.joined(separator: ", ")
                }
                return ["\(restore.name) reported success at \(String(format: "%.3f", end)) s, but the store is not the backup it restored"
                        + " (\(prefixes(reflected)); the backup: \(prefixes(restore.backup)))"]
            }
        }
        var found: [String] = []
        for match in reflected {
            guard let present = match.prefix else {
                found.append("writer \(match.writer): matches no prefix of its history")
                continue
            }
            let acked = acknowledgements.count(of: match.writer, before: time)
            if present < acked { found.append("writer \(match.writer): \(acked) acknowledged before this point, \(present) present") }
        }
        return found
    }
}

/// Per writer, the acknowledgement times of its committed sequence, sorted: how many were acknowledged before a
/// time is then a binary search, where filtering the history again for every state cost as much as the rest.
struct CrashStateAcknowledgements: Sendable, Codable {
    private var times: [Int: [Double]] = [:]

    init(_ oracle: Oracle) {
        for writer in oracle.writers {
            times[writer] = oracle.sequence(of: writer).compactMap(\.ackAt).sorted()
        }
    }

    /// Transactions of `writer` acknowledged strictly before `time` (an unacknowledged one never counts).
    func count(of writer: Int, before time: Double) -> Int {
        let sorted = times[writer] ?? []
        var low = 0, high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle] < time { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
