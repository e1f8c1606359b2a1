/// What the app does while a `hold` rule keeps a program's call waiting (`while_held` in scenario files,
/// `try --deep`'s interleavings): its writers commit N transactions (their turns), or the store is checkpointed.
/// Text: `commit N` (1 ... 1000) or `checkpoint passive|full|restart|truncate`; its `Codable` form is that text.
public enum HoldWork: Sendable, Equatable, Hashable {
    case commit(Int)
    case checkpoint(CheckpointMode)

    /// SQLite's `wal_checkpoint` modes.
    public enum CheckpointMode: String, Sendable, CaseIterable, Codable {
        case passive, full, restart, truncate
    }

    /// The grammar, for messages and help.
    public static let syntax = "`commit N` (1-1000) or `checkpoint passive|full|restart|truncate`"
    public static let commits = 1...1000
}

extension HoldWork: CustomStringConvertible, Codable {
    public init(text: String) throws(FaultTextError) {
        let words = FaultWords.split(text)
        let failure = FaultTextError(expected: Self.syntax, text: text)
        guard words.count == 2 else { throw failure }
        switch words[0] {
        case "commit":
            guard let n = Int(words[1]), Self.commits.contains(n) else { throw failure }
            self = .commit(n)
        case "checkpoint":
            guard let mode = CheckpointMode(rawValue: words[1]) else { throw failure }
            self = .checkpoint(mode)
        default: throw failure
        }
    }

    /// `commit 4`, `checkpoint truncate`.
    public var description: String {
        switch self {
        case .commit(let n): return "commit \(n)"
        case .checkpoint(let mode): return "checkpoint \(mode.rawValue)"
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.singleValueContainer()
        let text = try c.decode(String.self)
        do { self = try HoldWork(text: text) } catch {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "while_held item \(error)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.singleValueContainer()
        try c.encode(description)
    }
}
