/// The verdict of one invariant: whether it held, and the evidence a person can act on.
public struct Verdict: Sendable, Codable, Equatable {
    public enum Status: String, Sendable, Codable { case held, violated, notApplicable = "not-applicable" }

    public var invariant: String
    public var status: Status
    /// One line: what was checked, on what.
    public var summary: String
    /// Objects, files, transactions and faults involved, most telling first.
    public var evidence: [String]
    /// Why it was violated, where the run can tell: for a durability finding on FaultFS, the operations the crash
    /// dropped (from the op log, `CrashLoss`) and the fsync that would have kept them. Nil otherwise.
    public var cause: String?
    /// Whose behaviour it judges: the program under test (nil, the default) or the app's own (`Owner.app`),
    /// which reports show apart and which fails a `pass` run only when the scenario names it (lifeboat.run/3).
    public var owner: Owner?
    /// What to change, in one line, for a violated verdict: its invariant's fix (lifeboat.run/3).
    public var fix: String?
    /// What the user loses, and when, in one phrase, for a violated verdict: its invariant's consequence
    /// (lifeboat.run/4).
    public var consequence: String?

    public init(_ invariant: String, _ status: Status, _ summary: String, evidence: [String] = [], owner: Owner? = nil) {
        self.invariant = invariant
        self.status = status
        self.summary = summary
        self.evidence = evidence
        self.owner = owner == .program ? nil : owner
    }

    /// The summary of an invariant no part of the run examined, before the judge says why.
    public static let nothingChecked = "nothing in this run to check it on"

    /// Whether it judges the app's own behaviour rather than the program's.
    public var isAppsOwn: Bool { owner == .app }

    /// How bad its invariant's consequence is (`Severity`), for ranking findings; a name no invariant has (a
    /// report from another build) ranks last.
    public var severity: Severity { InvariantRegistry.invariant(named: invariant)?.severity ?? .cost }

    /// Verdicts worst first: violated before held before not exercised; among the violated, the program's before
    /// the app's own, then by severity; otherwise in the given (registry) order.
    public static func ranked(_ verdicts: [Verdict]) -> [Verdict] {
        func key(_ verdict: Verdict) -> (Int, Int, Int) {
            switch verdict.status {
            case .violated: (0, verdict.isAppsOwn ? 1 : 0, verdict.severity.rawValue)
            case .held: (1, 0, 0)
            case .notApplicable: (2, 0, 0)
            }
        }
        return verdicts.enumerated().sorted { a, b in
            let ka = key(a.element), kb = key(b.element)
            return ka != kb ? ka < kb : a.offset < b.offset
        }.map(\.element)
    }

    /// Folds several checks of one invariant (one per backup, say) into one verdict.
    public static func combine(_ invariant: String, _ parts: [Verdict]) -> Verdict {
        let applicable = parts.filter { $0.status != .notApplicable }
        guard !applicable.isEmpty else {
            return Verdict(invariant, .notApplicable, parts.first?.summary ?? nothingChecked)
        }
        let violated = applicable.filter { $0.status == .violated }
        if violated.isEmpty {
            return Verdict(invariant, .held, "held in \(applicable.count) check(s): " + digest(applicable))
        }
        var combined = Verdict(invariant, .violated, "violated in \(violated.count) of \(applicable.count) check(s): " + digest(violated),
                               evidence: Array(violated.flatMap(\.evidence).prefix(40)))
        let causes = violated.compactMap(\.cause)
        if !causes.isEmpty { combined.cause = causes.joined(separator: " ") }
        return combined
    }

    /// The summaries of a few checks, one clause each; of many (a campaign's hundreds), counts by kind (the
    /// summary without its label, up to the first `:`) and the first check in full, so a verdict stays readable.
    static func digest(_ parts: [Verdict]) -> String {
        guard parts.count > 4 else { return parts.map(\.summary).joined(separator: "; ") }
        var order: [String] = []
        var counts: [String: Int] = [:]
        for part in parts {
            let kind = part.summary.range(of: ": ").map { String(part.summary[$0.upperBound...]) } ?? part.summary
            if counts[kind] == nil { order.append(kind) }
            counts[kind, default: 0] += 1
        }
        let kinds = order.prefix(4).map { "\(counts[$0] ?? 0)× \($0)" }.joined(separator: "; ")
        let rest = order.count > 4 ? "; \(order.count - 4) other kind(s)" : ""
        return "\(kinds)\(rest); first: \(parts[0].summary)"
    }
}
