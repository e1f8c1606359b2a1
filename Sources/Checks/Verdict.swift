/// The verdict of one invariant: whether it held, and the evidence a person can act on.
public struct Verdict: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable { case held, violated, notApplicable = "not-applicable" }

    public var invariant: String
    public var status: Status
    /// One line: what was checked, on what.
    public var summary: String
    /// Objects, files, transactions and faults involved, most telling first.
    public var evidence: [String]

    public init(_ invariant: String, _ status: Status, _ summary: String, evidence: [String] = []) {
        self.invariant = invariant
        self.status = status
        self.summary = summary
        self.evidence = evidence
    }

    /// Folds several checks of one invariant (one per backup, say) into one verdict.
    public static func combine(_ invariant: String, _ parts: [Verdict]) -> Verdict {
        let applicable = parts.filter { $0.status != .notApplicable }
        guard !applicable.isEmpty else {
            return Verdict(invariant, .notApplicable, parts.first?.summary ?? "nothing in this run to check it on")
        }
        let violated = applicable.filter { $0.status == .violated }
        if violated.isEmpty {
            return Verdict(invariant, .held, "held in \(applicable.count) check(s): " + applicable.map(\.summary).joined(separator: "; "))
        }
        return Verdict(invariant, .violated, "violated in \(violated.count) of \(applicable.count) check(s): " + violated.map(\.summary).joined(separator: "; "),
                       evidence: Array(violated.flatMap(\.evidence).prefix(40)))
    }
}
