import Foundation
import Workload

/// How long the app's commits took while one backup or restore ran: the writers' commit latency (from a
/// transaction's `intent`, written right before the save, to its `ack`, written right after the commit returned:
/// the two times every history already holds, so measuring costs the writers nothing), over the commits whose
/// save overlapped the step's window. A backup that holds SQLite's write lock shows as a long stall here (Litestream
/// 0.5.13 blocked every write for about 5.5 minutes while it re-snapshotted; issue 30, point 3). Failed and
/// in-flight transactions have no end, and are left out: a writer that never got its answer is
/// `live-store-unaffected`'s finding.
public struct StepStall: Sendable, Codable, Equatable {
    /// `backup-0`, `restore-2.1`; the entry's index in the schedule.
    public var step: String
    public var index: Int
    public var start: Double
    public var end: Double
    /// Commits whose save overlapped the step.
    public var commits: Int
    /// Their latency's median and 99th percentile (nearest rank), and the longest, in seconds; nil without commits.
    public var p50: Double?
    public var p99: Double?
    public var longest: Double?
    /// The writer and transaction of the longest, and when its save began (run clock).
    public var longestWriter: Int?
    public var longestSeq: Int?
    public var longestAt: Double?

    public init(step: String, index: Int, start: Double, end: Double, commits: Int) {
        (self.step, self.index, self.start, self.end, self.commits) = (step, index, start, end, commits)
    }

    /// "p50 4 ms, p99 31 ms, longest 2.01 s (writer 1 tx 40) over 57 commits", or "no commit during it".
    public var summary: String {
        guard let p50, let p99, let longest else { return "no commit during it" }
        let who = longestWriter.map { " (writer \($0) tx \(longestSeq ?? 0))" } ?? ""
        return "p50 \(Self.seconds(p50)), p99 \(Self.seconds(p99)), longest \(Self.seconds(longest))\(who) over \(commits) commit(s)"
    }

    public static func seconds(_ value: Double) -> String {
        value < 1 ? String(format: "%.0f ms", value * 1000) : String(format: "%.2f s", value)
    }
}

public enum CommitStalls {
    /// One figure per backup and restore step of the record, from its writers' transactions.
    public static func figures(steps: [StepRecord], transactions: [Transaction]) -> [StepStall] {
        let committed = transactions.compactMap { t in t.ackAt.map { (t, $0 - t.intentAt) } }
        return steps.map { step in
            let during = committed.filter { $0.0.intentAt <= step.end && ($0.0.ackAt ?? 0) >= step.start }
            var stall = StepStall(step: step.name, index: step.index, start: step.start, end: step.end, commits: during.count)
            let latencies = during.map(\.1).sorted()
            guard !latencies.isEmpty, let worst = during.max(by: { $0.1 < $1.1 }) else { return stall }
            stall.p50 = percentile(latencies, 0.50)
            stall.p99 = percentile(latencies, 0.99)
            stall.longest = worst.1
            (stall.longestWriter, stall.longestSeq, stall.longestAt) = (worst.0.writer, worst.0.seq, worst.0.intentAt)
            return stall
        }
    }

    /// The nearest-rank percentile of sorted values.
    static func percentile(_ sorted: [Double], _ p: Double) -> Double {
        sorted[max(0, min(sorted.count - 1, Int((p * Double(sorted.count)).rounded(.up)) - 1))]
    }
}
