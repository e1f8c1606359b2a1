import Foundation

/// Fault coverage of a run (or, merged, of a campaign): per operation kind and file class how many calls ran,
/// how many matched a rule and how many a fault fired on, and how many crash points the run offered versus how
/// many were crashed at. A table of what a campaign did NOT reach is what tells a user where to aim next.
/// (The same shape as FaultFS's `coverage` reply: the record carries it, and Checks does not depend on FaultFS.)
public struct RunCoverage: Sendable, Codable, Equatable {
    public struct Row: Sendable, Codable, Equatable {
        public var op: String
        public var fileClass: String
        public var ops: Int
        public var matched: Int
        public var fired: Int

        public init(op: String, fileClass: String, ops: Int, matched: Int, fired: Int) {
            self.op = op
            self.fileClass = fileClass
            self.ops = ops
            self.matched = matched
            self.fired = fired
        }
    }

    public var rows: [Row]
    /// Persistence points (fsync, fdatasync, fsyncdir, sync-all) the run went through: where a crash could fall.
    public var crashPointsAvailable: Int
    /// Crash points at which a crash was simulated.
    public var crashPointsExplored: Int
    /// How many runs this sums (1 for a run, more for explore and walk).
    public var runs: Int
    /// `crash-states` only: the crash states checked at those points, how many failed, and how many of them
    /// were examined afresh (the others reused an identical state's examination). Absent in other runs.
    public var crashStatesChecked: Int?
    public var crashStatesFailed: Int?
    public var crashStatesExamined: Int?
    /// `crash-states` only: states whose main file was missing or shorter than one page beside a `-wal` with
    /// committed frames, and how many of them lost an acknowledged commit (the open discarded the `-wal`).
    public var crashStatesShortMain: Int?
    public var crashStatesShortMainFailed: Int?

    public init(rows: [Row], crashPointsAvailable: Int, crashPointsExplored: Int, runs: Int = 1) {
        self.rows = rows
        self.crashPointsAvailable = crashPointsAvailable
        self.crashPointsExplored = crashPointsExplored
        self.runs = runs
    }

    /// The file classes in table order.
    public static let classOrder = ["db", "-wal", "-shm", "-journal", "external-data", "directory", "other"]

    /// Rows sorted by op, then file class in `classOrder`.
    public var sortedRows: [Row] {
        rows.sorted { a, b in
            if a.op != b.op { return a.op < b.op }
            return (Self.classOrder.firstIndex(of: a.fileClass) ?? 99) < (Self.classOrder.firstIndex(of: b.fileClass) ?? 99)
        }
    }

    /// Sums runs cell by cell (explore and walk campaigns).
    public static func merged(_ parts: [RunCoverage]) -> RunCoverage? {
        guard !parts.isEmpty else { return nil }
        var cells: [String: Row] = [:]
        for part in parts {
            for row in part.rows {
                let key = row.op + "\u{0}" + row.fileClass
                var sum = cells[key] ?? Row(op: row.op, fileClass: row.fileClass, ops: 0, matched: 0, fired: 0)
                sum.ops += row.ops
                sum.matched += row.matched
                sum.fired += row.fired
                cells[key] = sum
            }
        }
        var sum = RunCoverage(rows: Array(cells.values), crashPointsAvailable: parts.reduce(0) { $0 + $1.crashPointsAvailable },
                              crashPointsExplored: parts.reduce(0) { $0 + $1.crashPointsExplored }, runs: parts.reduce(0) { $0 + $1.runs })
        if parts.contains(where: { $0.crashStatesChecked != nil }) {
            sum.crashStatesChecked = parts.reduce(0) { $0 + ($1.crashStatesChecked ?? 0) }
            sum.crashStatesFailed = parts.reduce(0) { $0 + ($1.crashStatesFailed ?? 0) }
            sum.crashStatesExamined = parts.reduce(0) { $0 + ($1.crashStatesExamined ?? 0) }
            sum.crashStatesShortMain = parts.reduce(0) { $0 + ($1.crashStatesShortMain ?? 0) }
            sum.crashStatesShortMainFailed = parts.reduce(0) { $0 + ($1.crashStatesShortMainFailed ?? 0) }
        }
        return sum
    }
}
