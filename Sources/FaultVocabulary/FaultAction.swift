#if canImport(Glibc)
import Glibc
#endif

/// What a fired rule does to the call: the one typed fault action of Lifeboat. Scenario files, `lifeboat walk
/// --action`, `try --deep` and repros use its text (`FaultText.swift`, the one parser of fault text); the FaultFS control protocol its
/// JSON object (`FaultAction+Protocol.swift`). Every kind is listed once, with its grammar and a line saying what
/// it does, in `Kind` (help texts and docs/faultfs.md's action table are checked against it).
public enum FaultAction: Sendable, Equatable {
    /// Fail the call with this errno (`Errno`, written by name: `errno EIO`).
    case errno(Errno)
    /// Transfer at most N bytes of a write (the call returns the short count).
    case shortWrite(Int)
    /// Transfer at most N bytes of a read.
    case shortRead(Int)
    /// Sleep this many milliseconds, then run the call normally.
    case delay(Int)
    /// fsync returns 0 but nothing becomes durable.
    case fsyncLie
    /// fsync returns EIO and the file's unsynced data is dropped as if written (Linux "fsyncgate").
    case fsyncFailClean
    /// A write byte budget across the mount; writes past it get ENOSPC (the crossing write is cut short).
    case enospcAfter(Int)
    /// The same budget as a disk quota: writes past it get EDQUOT. Not a full disk to a program: SQLite's unix VFS
    /// turns a failed write's ENOSPC into SQLITE_FULL and any other errno, EDQUOT too, into SQLITE_IOERR_WRITE.
    case edquotAfter(Int)
    /// The call runs normally, then the volume freezes: every later call fails with EIO until the next `crash`
    /// verb. The disk is left exactly as it was right after the call, so the crash that follows (the runner
    /// kills the processes, then crashes in this mode) happens "right after" it: what fault walks need for `nth`
    /// crashes. The daemon ignores the mode; the runner crashes with it.
    case crash(CrashMode)
    /// The call waits, before it runs, until the `release` verb names the rule (at most MS milliseconds): a runner
    /// commits and checkpoints the app's store meanwhile (`HoldWork`), so a backup's read of a store file comes at
    /// an exact moment of the app's work in every run (`try --deep`'s interleavings).
    case hold(Int)

    /// `crash` in keep-none mode (FaultFS's `.crash`, before the mode was part of the action).
    public static var crash: FaultAction { .crash(.keepNone) }

    /// How long a `hold` written without MS keeps the call at most: the runner releases it once the app's
    /// `while_held` work is done; a minute at most, so a run whose runner died does not hang.
    public static let defaultHoldMilliseconds = 60_000

    /// The action kinds, each once: its name, grammar and what it does. Help texts and docs come from this list.
    public enum Kind: String, Sendable, CaseIterable {
        case errno
        case shortWrite = "short-write"
        case shortRead = "short-read"
        case delay
        case fsyncLie = "fsync-lie"
        case fsyncFailClean = "fsync-fail-clean"
        case enospcAfter = "enospc-after"
        case edquotAfter = "edquot-after"
        case crash
        case hold

        /// The text grammar: `errno NAME`, `crash [MODE]`.
        public var syntax: String {
            switch self {
            case .errno: return "errno NAME"
            case .shortWrite, .shortRead: return "\(rawValue) N"
            case .delay: return "delay MS"
            case .fsyncLie, .fsyncFailClean: return rawValue
            case .enospcAfter, .edquotAfter: return "\(rawValue) BYTES"
            case .crash: return "crash [MODE]"
            case .hold: return "hold [MS]"
            }
        }

        /// One line: what the call gets.
        public var summary: String {
            switch self {
            case .errno: return "the call fails with that errno (EIO, ENOSPC, EDQUOT, EROFS, ...)"
            case .shortWrite: return "a write transfers at most N bytes and returns the short count"
            case .shortRead: return "a read transfers at most N bytes"
            case .delay: return "the call sleeps MS milliseconds (at most 60,000 in text), then runs"
            case .fsyncLie: return "fsync returns 0 but makes nothing durable"
            case .fsyncFailClean: return "fsync returns EIO and drops the file's unsynced data (Linux fsyncgate)"
            case .enospcAfter: return "a byte budget across the mount: the crossing write is cut short, later writes get ENOSPC"
            case .edquotAfter: return "the same budget as a disk quota: the crossing write is cut short, later writes get EDQUOT"
            case .crash: return "the call runs, then the volume freezes until the crash (MODE: \(CrashMode.syntax); default keep-none)"
            case .hold: return "the call waits before it runs until released (the app's while_held work) or MS pass (default 60,000)"
            }
        }

        /// Every kind's name, comma-separated, in lines of at most `width` characters each starting with `indent`:
        /// the action list of `faultfs`'s usage and `lifeboat faultfs --help`.
        public static func namesWrapped(width: Int, indent: String) -> String {
            HelpText.wrappedList(allCases.map(\.rawValue), width: width, indent: indent)
        }

        /// "errno NAME, short-write N, ... or hold [MS]": every kind's grammar, for messages and help.
        public static func syntaxList(_ kinds: [Kind] = allCases) -> String {
            let all = kinds.map(\.syntax)
            guard let last = all.last else { return "" }
            return all.count == 1 ? last : all.dropLast().joined(separator: ", ") + " or " + last
        }
    }

    public var kind: Kind {
        switch self {
        case .errno: return .errno
        case .shortWrite: return .shortWrite
        case .shortRead: return .shortRead
        case .delay: return .delay
        case .fsyncLie: return .fsyncLie
        case .fsyncFailClean: return .fsyncFailClean
        case .enospcAfter: return .enospcAfter
        case .edquotAfter: return .edquotAfter
        case .crash: return .crash
        case .hold: return .hold
        }
    }

    /// For the byte-budget actions (`enospc-after`, `edquot-after`): the budget across the mount, and the errno a
    /// write gets once it is spent. FaultFS charges and fails writes by this alone.
    public var writeBudget: (bytes: Int, errno: Int32)? {
        switch self {
        case .enospcAfter(let n): return (n, ENOSPC)
        case .edquotAfter(let n): return (n, EDQUOT)
        default: return nil
        }
    }

    /// What makes this action unusable on a rule over `ops` (ranges, an op the action acts on), or nil; an
    /// errno's name was checked where it was read (`Errno`). FaultFS refuses such a rule when it is armed; scenario files refuse it at its line.
    public func problem(ops: [FaultOp]) -> String? {
        let covers = { (op: FaultOp) in ops.contains(op) || ops.contains(.any) }
        switch self {
        case .errno(let errno):
            // The kernel takes ENOSYS from a flush as "flush not implemented": that close returns 0 and no later
            // close reaches the daemon (libfuse's fuse_lowlevel.h, flush), so the rule would silently do nothing.
            if errno == .ENOSYS && covers(.flush) {
                return "errno ENOSYS cannot fail a close: the kernel takes it from flush as 'not implemented' and stops sending flushes; name the other ops instead of any/flush"
            }
        case .shortWrite(let n):
            if n < 0 { return "\(kind.rawValue) needs N >= 0" }
            if !covers(.write) { return "\(kind.rawValue) needs op write" }
        case .shortRead(let n):
            if n < 0 { return "\(kind.rawValue) needs N >= 0" }
            if !covers(.read) { return "\(kind.rawValue) needs op read" }
        case .delay(let ms):
            if ms < 0 || ms > 600_000 { return "\(kind.rawValue) needs 0 <= MS <= 600000" }
        case .fsyncLie, .fsyncFailClean:
            if !(covers(.fsync) || ops.contains(.fsyncdir)) { return "fsync actions need op fsync" }
        case .enospcAfter(let n), .edquotAfter(let n):
            if n < 0 { return "\(kind.rawValue) needs BYTES >= 0" }
            if !covers(.write) { return "\(kind.rawValue) needs op write" }
        case .crash(let mode):
            if case .keepPrefix(let n) = mode, n < 0 { return "\(kind.rawValue) \(mode.name) needs N >= 0" }
        case .hold(let ms):
            if ms < 1 || ms > 600_000 { return "\(kind.rawValue) needs 1 <= MS <= 600000" }
        }
        return nil
    }
}
