import Checks
import Foundation
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

    /// Examines the store at `database` as SQLite recovers it: the verifier's serious findings, else the oracle's
    /// prefixes. A missing or empty database file is a state with nothing to check (SQLite starts an empty store).
    static func examine(_ database: URL, oracle: Oracle) -> CrashStateExamination {
        var result = CrashStateExamination()
        guard FileManager.default.fileExists(atPath: database.path), (StoreFiles.size(database) ?? 0) > 0 else { return result }
        do {
            let report = try StoreVerifier.verify(database)
            let serious: Set<Finding.Kind> = [.integrity, .bookkeeping, .unreadable, .danglingRelationship, .duplicateIdentity, .metadata]
            result.problems = report.violations.filter { serious.contains($0.kind) }.prefix(3).map(\.description)
            guard result.problems.isEmpty else { return result }
            let state = try StoreState.read(database)
            result.reflected = oracle.match(state).map { Reflected(writer: $0.writer, prefix: $0.prefixes.max()) }
        } catch {
            result.problems.append("cannot read: \(error)")
        }
        return result
    }

    /// The problems of this state at a persistence point of `time` (the history's clock): a writer whose state is
    /// no prefix of its history, or one missing a transaction acknowledged before the point.
    func problems(at time: Double, acknowledgements: CrashStateAcknowledgements) -> [String] {
        guard problems.isEmpty else { return problems }
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
struct CrashStateAcknowledgements: Sendable {
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
