@_exported import FaultVocabulary

/// Fault rules: which calls (op set + path glob), when (trigger) and what happens (action).
/// Value types shared by the daemon and the client API; their JSON form is the control protocol's `rule`.
/// The vocabulary (ops, triggers, actions, crash modes, errno names) lives in `FaultVocabulary`, which has no FUSE
/// in it, so scenario files and the CLI parse the same types; FaultFS's clients get it with `import FaultFS`.

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
        action = try c.decode(FaultActionJSON.self, forKey: .action).action
        processGroups = try c.decodeIfPresent([Int32].self, forKey: .processGroups)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encodeIfPresent(id, forKey: .id)
        try c.encode(ops, forKey: .ops)
        try c.encode(path, forKey: .path)
        try c.encode(trigger, forKey: .trigger)
        try c.encode(FaultActionJSON(action), forKey: .action)
        try c.encodeIfPresent(processGroups, forKey: .processGroups)
    }

    /// Checks what JSON decoding cannot: ranges, actions that fit the op set (an errno name is checked as it is decoded).
    /// Returns a message for the caller, or nil when the rule is usable.
    public func validationError() -> String? {
        if ops.isEmpty { return "rule needs at least one op" }
        if path.isEmpty { return "rule path glob is empty" }
        return trigger.problem ?? action.problem(ops: ops)
    }
}

/// A rule as listed by the daemon, with how often it matched and fired.
public struct RuleStatus: Codable, Sendable, Equatable {
    public var rule: FaultRule
    public var matched: Int
    public var fired: Int
    /// For a byte budget (enospc-after, edquot-after): bytes charged against it so far.
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
