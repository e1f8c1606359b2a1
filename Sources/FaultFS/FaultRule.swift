/// Fault rules: which calls (op set + path glob), when (trigger) and what happens (action).
/// Value types shared by the daemon and the client API; their JSON form is the control protocol's `rule`.

/// A file system operation a rule can target. `any` matches every operation.
public enum FaultOp: String, Codable, Sendable, CaseIterable {
    case any, open, create, read, write, flush, release, fsync, fsyncdir, truncate, fallocate
    case rename, unlink, rmdir, mkdir, link, symlink, readlink, getattr, readdir, opendir
    case chmod, chown, utimens, statfs, access, lseek
    case copyFileRange = "copy_file_range"
}

/// When a matching call fires the rule. Counting starts at 1 with the first matching call.
public enum FaultTrigger: Sendable, Equatable {
    /// Exactly the Kth matching call.
    case nth(Int)
    /// Every matching call after the Kth (K+1, K+2, ...).
    case after(Int)
    /// Each matching call with probability P, drawn from the rule's seeded stream.
    case probability(Double)
    /// Every matching call.
    case always
}

/// What a fired rule does to the call.
public enum FaultAction: Sendable, Equatable {
    /// Fail the call with this errno (by name, e.g. "EIO").
    case errno(String)
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
    /// The call runs normally, then the volume freezes: every later call fails with EIO until the next `crash`
    /// verb. The disk is left exactly as it was right after the call, so the crash that follows (the runner
    /// kills the processes, then crashes) happens "right after" it: what fault walks need for `nth` crashes.
    case crash
    /// The call waits, before it runs, until the `release` verb names the rule (at most MS milliseconds): a runner
    /// commits and checkpoints the app's store meanwhile, so a backup's read of a store file comes at an exact
    /// moment of the app's work in every run (`try --deep`'s interleavings).
    case hold(Int)
}

/// One armed rule.
public struct FaultRule: Codable, Sendable, Equatable {
    /// Assigned by the daemon when nil ("r1", "r2", ...); a caller-chosen id must be unique.
    public var id: String?
    public var ops: [FaultOp]
    /// fnmatch(3) glob on the mount-relative path ("/a.db-wal"); `*` also matches `/`. Default "*".
    public var path: String
    public var trigger: FaultTrigger
    public var action: FaultAction
    /// Only calls made by these process groups (FaultRule+Scope.swift); nil: every caller.
    public var processGroups: [Int32]?

    public init(id: String? = nil, ops: [FaultOp], path: String = "*", trigger: FaultTrigger = .always,
                action: FaultAction, processGroups: [Int32]? = nil) {
        self.id = id
        self.ops = ops
        self.path = path
        self.trigger = trigger
        self.action = action
        self.processGroups = processGroups
    }

    enum CodingKeys: String, CodingKey { case id, ops, path, trigger, action, processGroups = "process_groups" }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decodeIfPresent(String.self, forKey: .id)
        ops = try c.decode([FaultOp].self, forKey: .ops)
        path = try c.decodeIfPresent(String.self, forKey: .path) ?? "*"
        trigger = try c.decodeIfPresent(FaultTrigger.self, forKey: .trigger) ?? .always
        action = try c.decode(FaultAction.self, forKey: .action)
        processGroups = try c.decodeIfPresent([Int32].self, forKey: .processGroups)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(ops, forKey: .ops)
        try c.encode(path, forKey: .path)
        try c.encode(trigger, forKey: .trigger)
        try c.encode(action, forKey: .action)
        try c.encodeIfPresent(processGroups, forKey: .processGroups)
    }

    /// Checks what JSON decoding cannot: ranges, known errno names, actions that fit the op set.
    /// Returns a message for the caller, or nil when the rule is usable.
    public func validationError() -> String? {
        if ops.isEmpty { return "rule needs at least one op" }
        if path.isEmpty { return "rule path glob is empty" }
        switch trigger {
        case .nth(let k) where k < 1: return "trigger nth needs K >= 1"
        case .after(let k) where k < 0: return "trigger after needs K >= 0"
        case .probability(let p) where !(p >= 0 && p <= 1): return "trigger probability needs 0 <= P <= 1"
        default: break
        }
        let covers = { (op: FaultOp) in ops.contains(op) || ops.contains(.any) }
        switch action {
        case .errno(let name):
            if ErrnoNames.value(of: name) == nil { return "unknown errno name \(name)" }
            // The kernel takes ENOSYS from a flush as "flush not implemented": that close returns 0 and no later
            // close reaches the daemon (libfuse's fuse_lowlevel.h, flush), so the rule would silently do nothing.
            if name.uppercased() == "ENOSYS" && covers(.flush) {
                return "errno ENOSYS cannot fail a close: the kernel takes it from flush as 'not implemented' and stops sending flushes; name the other ops instead of any/flush"
            }
        case .shortWrite(let n):
            if n < 0 { return "short-write needs N >= 0" }
            if !covers(.write) { return "short-write needs op write" }
        case .shortRead(let n):
            if n < 0 { return "short-read needs N >= 0" }
            if !covers(.read) { return "short-read needs op read" }
        case .delay(let ms):
            if ms < 0 || ms > 600_000 { return "delay needs 0 <= MS <= 600000" }
        case .fsyncLie, .fsyncFailClean:
            if !(covers(.fsync) || ops.contains(.fsyncdir)) { return "fsync actions need op fsync" }
        case .enospcAfter(let n):
            if n < 0 { return "enospc-after needs BYTES >= 0" }
            if !covers(.write) { return "enospc-after needs op write" }
        case .crash:
            break
        case .hold(let ms):
            if ms < 1 || ms > 600_000 { return "hold needs 1 <= MS <= 600000" }
        }
        return nil
    }
}

extension FaultTrigger: Codable {
    enum CodingKeys: String, CodingKey { case kind, n, p }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "nth": self = .nth(try c.decode(Int.self, forKey: .n))
        case "after": self = .after(try c.decode(Int.self, forKey: .n))
        case "probability": self = .probability(try c.decode(Double.self, forKey: .p))
        case "always": self = .always
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c,
                debugDescription: "unknown trigger kind \(kind) (nth, after, probability, always)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .nth(let k): try c.encode("nth", forKey: .kind); try c.encode(k, forKey: .n)
        case .after(let k): try c.encode("after", forKey: .kind); try c.encode(k, forKey: .n)
        case .probability(let p): try c.encode("probability", forKey: .kind); try c.encode(p, forKey: .p)
        case .always: try c.encode("always", forKey: .kind)
        }
    }
}

extension FaultAction: Codable {
    enum CodingKeys: String, CodingKey { case kind, errno, bytes, ms }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let kind = try c.decode(String.self, forKey: .kind)
        switch kind {
        case "errno": self = .errno(try c.decode(String.self, forKey: .errno))
        case "short-write": self = .shortWrite(try c.decode(Int.self, forKey: .bytes))
        case "short-read": self = .shortRead(try c.decode(Int.self, forKey: .bytes))
        case "delay": self = .delay(try c.decode(Int.self, forKey: .ms))
        case "fsync-lie": self = .fsyncLie
        case "fsync-fail-clean": self = .fsyncFailClean
        case "enospc-after": self = .enospcAfter(try c.decode(Int.self, forKey: .bytes))
        case "crash": self = .crash
        case "hold": self = .hold(try c.decode(Int.self, forKey: .ms))
        default:
            throw DecodingError.dataCorruptedError(forKey: .kind, in: c, debugDescription:
                "unknown action kind \(kind) (errno, short-write, short-read, delay, fsync-lie, fsync-fail-clean, enospc-after, crash, hold)")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .errno(let e): try c.encode("errno", forKey: .kind); try c.encode(e, forKey: .errno)
        case .shortWrite(let n): try c.encode("short-write", forKey: .kind); try c.encode(n, forKey: .bytes)
        case .shortRead(let n): try c.encode("short-read", forKey: .kind); try c.encode(n, forKey: .bytes)
        case .delay(let ms): try c.encode("delay", forKey: .kind); try c.encode(ms, forKey: .ms)
        case .fsyncLie: try c.encode("fsync-lie", forKey: .kind)
        case .fsyncFailClean: try c.encode("fsync-fail-clean", forKey: .kind)
        case .enospcAfter(let n): try c.encode("enospc-after", forKey: .kind); try c.encode(n, forKey: .bytes)
        case .crash: try c.encode("crash", forKey: .kind)
        case .hold(let ms): try c.encode("hold", forKey: .kind); try c.encode(ms, forKey: .ms)
        }
    }
}

/// A rule as listed by the daemon, with how often it matched and fired.
public struct RuleStatus: Codable, Sendable, Equatable {
    public var rule: FaultRule
    public var matched: Int
    public var fired: Int
    /// For enospc-after: bytes charged against the budget so far.
    public var bytesUsed: Int?
    /// The first call the rule fired on: which op, which path, and who made it.
    public var firstFire: FiredCall?
    /// For hold: the calls waiting for `release` now.
    public var holding: Int?
}

/// A call a rule fired on, as the daemon saw it: the caller's pid and its ancestors (so a runner can name the
/// child that made it, even when a backup script's `cp` did) and the caller's command name.
public struct FiredCall: Codable, Sendable, Equatable {
    public var op: String
    public var path: String
    /// Bytes of a write (0 for other ops).
    public var bytes: Int
    /// The caller first, then its parent, grandparent, ... (up to 8, stopping at init).
    public var pids: [Int32]
    /// `comm` of the caller (from /proc), when it was still there.
    public var command: String?
    /// Wall-clock time of the call (seconds since 1970), to line it up with the writers' histories.
    public var at: Double?

    public init(op: String, path: String, bytes: Int, pids: [Int32], command: String?, at: Double? = nil) {
        self.at = at
        self.op = op
        self.path = path
        self.bytes = bytes
        self.pids = pids
        self.command = command
    }
}
