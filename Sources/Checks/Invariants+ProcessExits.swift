import Foundation

/// A writer or reader that ended on its own with a non-zero exit status is a finding, not only a line of the
/// timeline: a writer that died was affected (`live-store-unaffected`), a reader that died read nothing more
/// (`reader-consistent`). A process the run stopped ends by a signal and is not one. A pure function of the
/// processes' names, statuses and the tails of their output.
public enum ProcessExits {
    public struct Ended: Sendable, Equatable {
        public var name: String
        public var status: Int32
        public var outputTail: String
        public init(name: String, status: Int32, outputTail: String) {
            (self.name, self.status, self.outputTail) = (name, status, outputTail)
        }
    }

    public static func verdicts(_ ended: [Ended]) -> [Verdict] {
        ended.filter { $0.status > 0 }.compactMap { process in
            let invariant: String
            if process.name.hasPrefix("writer-") { invariant = "live-store-unaffected" }
            else if process.name.hasPrefix("reader-") { invariant = "reader-consistent" }
            else { return nil }
            let line = "\(process.name) exited with status \(process.status)" + (process.outputTail.isEmpty ? "" : ": \(process.outputTail.prefix(300))")
            return Verdict(invariant, .violated, "\(process.name) exited with status \(process.status)", evidence: [line])
        }
    }
}
