import FaultVocabulary

/// What one op-log record is: a call FaultFS served for a process, or a record the daemon writes itself (mount,
/// a rule armed, a marker, a crash, a sync of everything). The op log's `op` field is its raw value, so logs
/// written before this type read the same; a name outside this list is a bad line, reported as one.
///
/// One list, so that readers of the log (crash causes, crash-state enumeration, the walks, the bench) switch
/// over it instead of comparing text, and a new logged call is added here or nowhere.
public enum LoggedOp: String, Codable, Sendable, CaseIterable, CustomStringConvertible {
    // Calls, by their FUSE names (every `FaultOp` but `any`, plus the three a rule counts as another).
    case open, create, read, write, flush, release, fsync, fsyncdir, truncate, fallocate
    case rename, unlink, rmdir, mkdir, link, symlink, readlink, getattr, readdir, opendir
    case chmod, chown, utimens, statfs, access, lseek
    case copyFileRange = "copy_file_range"
    /// SQLite's sync: a rule over `fsync` fires on it.
    case fdatasync
    /// A node made by mknod (a rule over `create` fires on it).
    case mknod
    /// A rename with RENAME_EXCHANGE (a rule over `rename` fires on it).
    case exchange
    // The daemon's own records (no process made them).
    case mount, unmount
    /// A rule armed over the control socket (`detail` is its id).
    case arm
    /// A `log-mark` from the runner (`detail` is its label).
    case mark
    /// A crash: `synced` lists what survived, `dropped` what it took away.
    case crash
    /// A `sync-all` (the sync shim's or the runner's): every pending op made durable.
    case syncAll = "sync-all"
    /// Not a record of the log: the point after its last record, where the crash-state enumeration takes its last
    /// crash state.
    case endOfLog = "end of log"

    /// The op log's name for it.
    public var description: String { rawValue }

    /// The logged name of a call a rule matched (`Operations+Faults` logs the call by the rule's op).
    public init(_ op: FaultOp) {
        guard let logged = LoggedOp(rawValue: op.rawValue) else { preconditionFailure("FaultOp.\(op) has no op-log name") }
        self = logged
    }

    /// The op a rule over it is written with: its own, except fdatasync (`fsync`), mknod (`create`) and exchange
    /// (`rename`). Nil for the daemon's own records.
    public var ruleOp: FaultOp? {
        switch self {
        case .fdatasync: .fsync
        case .mknod: .create
        case .exchange: .rename
        case .mount, .unmount, .arm, .mark, .crash, .syncAll, .endOfLog: nil
        default: FaultOp(rawValue: rawValue)
        }
    }

    /// An fsync or fdatasync of a file.
    public var isFileSync: Bool { self == .fsync || self == .fdatasync }

    /// A barrier: after it returns, what it covers is durable (a file's sync, a directory's, or everything).
    public var isBarrier: Bool { isFileSync || self == .fsyncdir || self == .syncAll }

    /// Changes a file's data or size (made durable by an fsync of the file).
    public var isData: Bool { [.write, .truncate, .copyFileRange, .fallocate].contains(self) }

    /// Changes a directory entry (made durable by an fsync of the directory) rather than a file's data.
    public var isEntry: Bool { [.create, .mkdir, .mknod, .symlink, .link, .unlink, .rmdir, .rename, .exchange].contains(self) }
}
