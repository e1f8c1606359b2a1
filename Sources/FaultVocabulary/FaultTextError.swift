/// Why a piece of fault text (an action, a crash mode, a `while_held` item) does not parse: what the grammar
/// expects and, when it can say more, what is wrong. Callers put it at their own position (a scenario file's
/// line and column, a CLI flag).
public struct FaultTextError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The grammar, e.g. "errno NAME, short-write N, ... or hold [MS]".
    public var expected: String
    /// The text that did not parse.
    public var text: String
    /// What exactly is wrong, when more than "not one of these" ("EWHAT is not an errno name ...").
    public var detail: String?

    public init(expected: String, text: String, detail: String? = nil) {
        self.expected = expected
        self.text = text
        self.detail = detail
    }

    /// "must be EXPECTED, not 'TEXT'" with the detail after a semicolon; callers prefix what they parsed.
    public var description: String { "must be \(expected), not '\(text)'" + (detail.map { "; \($0)" } ?? "") }
}
