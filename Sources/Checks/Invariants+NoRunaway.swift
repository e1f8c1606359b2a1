import Foundation

/// Pure checks over plain samples that more than one invariant or tool uses.
public enum Invariants {}

extension Invariants {
    /// The size of the backup area (every regular file under `LIFEBOAT_BACKUP_ROOT`) at one moment of the run.
    public struct SizeSample: Sendable, Equatable, Codable {
        public var t: Double
        public var bytes: Int64
        public init(t: Double, bytes: Int64) {
            self.t = t
            self.bytes = bytes
        }
    }

    /// `no-runaway`: once nothing is committed any more, a continuous backup tool (a sidecar) stops adding to its
    /// backup. The bytes it adds per committed byte are then unbounded: with no commit at all, a replica that
    /// still grows steadily is a loop (Litestream 0.5.5 and 0.5.6 snapshot an idle database forever,
    /// https://github.com/benbjohnson/litestream/issues/997), and it fills a disk or a bucket without limit.
    ///
    /// The idle window runs from `settle` seconds after the last acknowledged commit (time for the tool to ship
    /// the last commits, checkpoint and compact) to `end` (the tool stopped, or a step began). The finding is
    /// growth in each third of the window (steady, not one last snapshot or compaction) adding up to more than
    /// `slack` bytes; shrinking (retention) is never one.
    public static func noRunaway(_ samples: [SizeSample], lastCommit: Double, end: Double, settle: Double = 5,
                                 slack: Int64 = 64 * 1024, area: String) -> Verdict {
        let start = lastCommit + settle
        let window = samples.filter { $0.t >= start && $0.t <= end }
        guard let first = window.first, let last = window.last, last.t - first.t >= 6, window.count >= 4 else {
            let idle = max(0, end - start)
            return Verdict("no-runaway", .notApplicable,
                           String(format: "the backup tool ran only %.1f s past the last commit (at %.1f s) and its %.0f s to settle: "
                                  + "keep a sidecar running 6 s or more longer (stop: at_seconds) to judge it", idle, lastCommit, settle))
        }
        func size(at t: Double) -> Int64 { window.last { $0.t <= t }?.bytes ?? first.bytes }
        let third = (last.t - first.t) / 3
        let bounds = (0...3).map { first.t + Double($0) * third }
        let growth = (0..<3).map { size(at: bounds[$0 + 1]) - size(at: bounds[$0]) }
        let total = last.bytes - first.bytes
        let span = String(format: "%.1f s to %.1f s (the last commit at %.1f s)", first.t, last.t, lastCommit)
        guard growth.allSatisfy({ $0 > 0 }), total > slack else {
            return Verdict("no-runaway", .held, "\(area): \(total >= 0 ? "grew by \(total)" : "shrank by \(-total)") bytes from \(span), nothing committed")
        }
        let rate = Double(total) / max(0.001, last.t - first.t)
        return Verdict("no-runaway", .violated,
                       "\(area) keeps growing with nothing committed: \(total) bytes from \(span)",
                       evidence: [
                           String(format: "\(area): %lld bytes at %.1f s, %lld bytes at %.1f s: %.0f bytes/s while no transaction was committed",
                                  first.bytes, first.t, last.bytes, last.t, rate),
                           "growth in each third of the idle window: \(growth.map(String.init).joined(separator: ", ")) bytes (steady, not one last snapshot)",
                       ])
    }
}
