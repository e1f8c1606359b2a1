import FaultFS
import FaultVocabulary
import Foundation

/// The input/output coverage of a deep search (issue 39, point 2): for each kind of call the program made and each
/// answer a local Linux file system can give it (success, a short transfer, EIO, ENOSPC, EDQUOT, EROFS, EINTR, an
/// fsync that fails and drops the file's unsynced data), whether the program met that answer: `met` (success, in
/// the probe run), `faulted` (a walk gave it at N of its calls), `not tried` (reachable, but no walk of this search
/// gave it: the budget, or a kind of call the walks do not cover) or `unreachable` (no such answer to such a call,
/// with why). "Held at every point" then says what it was held against, and what was never tried.
/// CM-IOCov (SYSTOR 2025) counts syscall return classes the same way.
extension DeepSearch {
    /// One cell: a kind of call and an answer to it. `op` and `answer` are written as their names ("write",
    /// "EIO"), as `deep.json` has always had them.
    public struct IOCell: Sendable, Codable, Equatable {
        public var op: FaultOp
        public var answer: IOAnswer
        public var status: IOStatus
        /// Calls answered so: the probe's count for success, the points a walk faulted otherwise.
        public var calls: Int
        /// Why a cell is unreachable or was not tried.
        public var reason: String?
    }

    /// What a cell says of its (call, answer): written in `deep.json` as its raw value, as it always was.
    public enum IOStatus: String, Sendable, Codable, CaseIterable {
        /// Success, in the probe run.
        case met
        /// A walk gave the answer at some of the program's calls.
        case faulted
        /// Reachable, but no walk of this search gave it (the budget, or a kind of call the walks do not cover).
        case notTried = "not tried"
        /// No local file system gives that answer to that call.
        case unreachable

        /// Whether the program was shown this answer.
        public var filled: Bool { self == .met || self == .faulted }
    }

    /// An answer a local Linux file system can give a call: the table's columns. Its text (`description`, and its
    /// `Codable` form) is the column's name: "success", "short", the errno's name ("EIO") or "fsync-fail-clean"
    /// (the fault action's own name).
    public enum IOAnswer: Sendable, Hashable, Codable, CaseIterable, CustomStringConvertible {
        case success
        /// A short transfer.
        case short
        /// One of `errnos`.
        case errno(Errno)
        /// An fsync that fails and gives the file's unsynced data up.
        case fsyncFailClean

        /// The errnos a local file system gives these calls, in the table's order.
        public static let errnos: [Errno] = [.EIO, .ENOSPC, .EDQUOT, .EROFS, .EINTR]

        /// The answers, in the table's order.
        public static let allCases: [IOAnswer] = [.success, .short] + errnos.map { .errno($0) } + [.fsyncFailClean]

        public var description: String {
            switch self {
            case .success: "success"
            case .short: "short"
            case .errno(let errno): errno.rawValue
            case .fsyncFailClean: FaultAction.Kind.fsyncFailClean.rawValue
            }
        }

        /// The answer named so, or nil for a name that is not a column.
        public init?(name: String) {
            guard let answer = Self.allCases.first(where: { $0.description == name }) else { return nil }
            self = answer
        }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.singleValueContainer()
            let name = try c.decode(String.self)
            guard let answer = IOAnswer(name: name) else {
                throw DecodingError.dataCorruptedError(in: c, debugDescription:
                    "an answer must be one of \(Self.allCases.map(\.description).joined(separator: ", ")), not '\(name)'")
            }
            self = answer
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.singleValueContainer()
            try c.encode(description)
        }
    }

    /// The answers, in the table's order.
    public static let ioAnswers = IOAnswer.allCases
    /// The kinds of call the table has a row for (when the program made any): the probe's, but its opens, which
    /// it counts on the store's files only, for the interleavings.
    static let ioOps: [FaultOp] = [.write, .copyFileRange, .fsync, .fsyncdir, .rename, .unlink, .rmdir, .flush]

    /// The key of a (call, answer) pair in a walk's `faulted` counts and the plan's pairs: "write EIO".
    public static func ioKey(_ op: String, _ answer: IOAnswer) -> String { op + " " + answer.description }

    /// Why no local Linux file system gives `answer` to `op`; nil when one can.
    static func unreachable(_ op: FaultOp, _ answer: IOAnswer) -> String? {
        let data: [FaultOp] = [.write, .copyFileRange]
        switch answer {
        case .success, .errno(.EIO): return nil
        case .short: return data.contains(op) ? nil : "no byte count to cut short"
        case .errno(.ENOSPC), .errno(.EDQUOT):
            if data.contains(op) || op == .fsync { return nil }
            return "allocates no data block (delayed allocation reports a full disk at the write or the fsync)"
        case .errno(.EROFS):
            if data.contains(op) || [.rename, .unlink, .rmdir].contains(op) { return nil }
            return "changes nothing on disk by itself: a file system gone read-only answers it with EIO"
        case .errno(.EINTR): return "a call on a local file is not interrupted by a signal (EINTR comes from network file systems)"
        case .fsyncFailClean: return op == .fsync ? nil : "only an fsync of a file gives its unsynced data up"
        case .errno: return "not an answer of this table"
        }
    }

    /// The table's row of the call a fault fired on: a rule over `fsync` fires on fdatasync too, which the op log
    /// names as such (SQLite's syncs are fdatasync), and is the same row.
    public static func ioOp(ofHit op: String) -> String { LoggedOp(rawValue: op)?.ruleOp?.rawValue ?? op }

    /// The table's answer class of a walk's action; nil for a crash or a hold (no answer to the call), or an errno
    /// the table has no column for.
    public static func ioAnswer(of action: FaultAction) -> IOAnswer? {
        switch action {
        case .errno(let errno): IOAnswer.errnos.contains(errno) ? .errno(errno) : nil
        case .shortWrite: .short
        case .fsyncFailClean: .fsyncFailClean
        default: nil
        }
    }

    /// Every program's table: the pairs the plan's walks give (`summary.walks`), and `faulted`, each program's
    /// points per (op, answer) from the walks that ran (a merge of shards adds up each walk's own).
    public static func ioCoverage(of summary: Summary, faulted: [String: [String: Int]]) -> [String: [IOCell]] {
        func base(_ program: String) -> String { program.components(separatedBy: "+")[0] }
        var planned: [String: Set<String>] = [:]
        for walk in summary.walks {
            guard let answer = ioAnswer(of: walk.action) else { continue }
            for op in walk.ops { planned[base(walk.program), default: []].insert(ioKey(op.rawValue, answer)) }
        }
        var tables: [String: [IOCell]] = [:]
        for (program, calls) in summary.calls where !program.contains("+") {
            tables[program] = ioCoverage(calls: calls, faulted: faulted[program] ?? [:], planned: planned[program] ?? [])
        }
        return tables
    }

    /// The table of one program: `calls` its probe's counts, `faulted` the points each (op, answer) was given at
    /// (from the walks' rows: the call each fault fired on), `planned` the (op, answer) pairs some planned walk
    /// covers (a planned one not faulted was cut by the budget).
    public static func ioCoverage(calls: [String: Int], faulted: [String: Int], planned: Set<String>) -> [IOCell] {
        var cells: [IOCell] = []
        for op in ioOps where (calls[op.rawValue] ?? 0) > 0 {
            for answer in ioAnswers {
                let key = ioKey(op.rawValue, answer)
                if answer == .success {
                    cells.append(IOCell(op: op, answer: answer, status: .met, calls: calls[op.rawValue] ?? 0, reason: nil))
                } else if let why = unreachable(op, answer) {
                    cells.append(IOCell(op: op, answer: answer, status: .unreachable, calls: 0, reason: why))
                } else if let points = faulted[key], points > 0 {
                    cells.append(IOCell(op: op, answer: answer, status: .faulted, calls: points, reason: nil))
                } else {
                    let reason = planned.contains(key) ? "its walk did not run (the budget, or an interruption)"
                        : op == .copyFileRange && answer == .short ? "FaultFS cannot cut a copy_file_range short (short-write acts on write)"
                        : "no walk of the search gives it"
                    cells.append(IOCell(op: op, answer: answer, status: .notTried, calls: 0, reason: reason))
                }
            }
        }
        return cells
    }

    /// "19 of 21 reachable cells filled (90%)" over every program's table.
    public static func ioShare(_ tables: [String: [IOCell]]) -> String {
        let cells = tables.values.flatMap { $0 }.filter { $0.status != .unreachable }
        let filled = cells.filter(\.status.filled).count
        return "\(filled) of \(cells.count) reachable (call, answer) cells filled (\(cells.isEmpty ? 100 : filled * 100 / cells.count)%)"
    }
}
