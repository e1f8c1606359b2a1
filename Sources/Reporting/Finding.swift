import Checks
import Foundation

/// One violated verdict as a person acts on it: what is lost and when (the invariant's consequence), the first
/// piece of evidence, the cause from the op log, and what to change. Terminal lines, report.md, report.html,
/// JUnit, `try`'s lines and its page all print findings through this, so they say the same thing in the same
/// words; a list of findings is ranked worst first (`Severity`).
public struct Finding: Sendable, Codable, Equatable {
    public var invariant: String
    /// What the user loses, and when (the invariant's consequence).
    public var consequence: String
    public var severity: Severity
    /// The first piece of evidence (its first clause), with scratch paths shown relative to the run
    /// (`FindingText.relativePaths`).
    public var evidence: String?
    /// The first operation the op log blames (the cause's first clause), paths as the volume names them.
    public var cause: String?
    public var fix: String?
    /// The app's own (Core Data's behaviour), reported apart from the program's findings.
    public var appsOwn: Bool

    public init(invariant: String, consequence: String, severity: Severity, evidence: String?, cause: String?, fix: String?, appsOwn: Bool) {
        self.invariant = invariant
        self.consequence = consequence
        self.severity = severity
        self.evidence = evidence
        self.cause = cause
        self.fix = fix
        self.appsOwn = appsOwn
    }

    /// A violated verdict's finding. A verdict from a report of an older build (no consequence) falls back on its
    /// summary.
    public init(_ verdict: Verdict) {
        self.init(invariant: verdict.invariant,
                  consequence: verdict.consequence ?? InvariantRegistry.invariant(named: verdict.invariant)?.consequence ?? verdict.summary,
                  severity: verdict.severity,
                  evidence: FindingText.relativePaths(FindingText.firstClause(verdict.evidence.first ?? verdict.summary)),
                  cause: verdict.cause.map { FindingText.firstClause($0) },
                  fix: verdict.fix, appsOwn: verdict.isAppsOwn)
    }

    /// The findings of a run's verdicts, worst first: the program's, then the app's own.
    public static func of(_ verdicts: [Verdict]) -> [Finding] {
        Verdict.ranked(verdicts).filter { $0.status == .violated }.map(Finding.init)
    }

    /// The finding's lines: the headline (invariant and consequence), then the evidence, the cause and the fix,
    /// each labelled and indented under it, wrapped at `width` (nil: one line each, for files and pipes).
    public func lines(indent: Int, width: Int?) -> [String] {
        let pad = String(repeating: " ", count: indent)
        var lines = FindingText.wrap("\(invariant): \(consequence)", width: width, indent: pad, hanging: pad + "    ")
        for (label, text) in [("e.g.", evidence), ("cause:", cause), ("fix:", fix)] {
            guard let text else { continue }
            lines += FindingText.wrap("\(label) \(text)", width: width, indent: pad + "    ", hanging: pad + "        ")
        }
        return lines
    }
}

/// Text helpers for findings: scratch paths made relative, one clause, one line, wrapping at a width.
public enum FindingText {
    /// `text` with every absolute scratch path of a run (`…/run-<id>/store/backups/0-1/…`, `…/run-<id>/live/…`)
    /// shown from the run's own folders (`backups/0-1/…`), so a line carries the part a person reads.
    public static func relativePaths(_ text: String) -> String {
        guard let expression = try? NSRegularExpression(pattern: #"/(?:[^\s/]+/)*run-(?:[a-z]+-)*[0-9]{8}-[0-9]{6}-[0-9a-f]+/(?:store/)?"#) else { return text }
        return expression.stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "")
    }

    /// The first clause of `text`: up to its first "; " (a cause lists the dropped operations one per clause).
    /// The first sentence of `text` (up to ". " or "; "), on one line: a piece of evidence quoted in a line.
    public static func firstSentence(_ text: String) -> String {
        let flat = oneLine(text)
        let end = [flat.range(of: ". ")?.lowerBound, flat.range(of: "; ")?.lowerBound].compactMap { $0 }.min() ?? flat.endIndex
        return String(flat[..<end])
    }

    public static func firstClause(_ text: String) -> String {
        let flat = oneLine(text)
        guard let end = flat.range(of: "; ")?.lowerBound else { return flat }
        return String(flat[..<end])
    }

    /// `text` on one line: line breaks and runs of spaces become one space.
    public static func oneLine(_ text: String) -> String {
        text.split(whereSeparator: { $0 == "\n" || $0 == "\r" || $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// `text` in lines of at most `width` characters (a word longer than that stands alone on its line), the
    /// first starting with `indent`, the rest with `hanging`; with no width, one line.
    public static func wrap(_ text: String, width: Int?, indent: String, hanging: String) -> [String] {
        guard let width else { return [indent + text] }
        // Leading spaces of the text belong to the first line's indent.
        let lead = String(text.prefix { $0 == " " })
        var lines: [String] = []
        var current = indent + lead
        var empty = true
        for word in text.split(separator: " ") {
            if !empty, current.count + 1 + word.count > width {
                lines.append(current)
                current = hanging
                empty = true
            }
            current += (empty ? "" : " ") + word
            empty = false
        }
        lines.append(current)
        return lines
    }
}
