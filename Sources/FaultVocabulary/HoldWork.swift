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
