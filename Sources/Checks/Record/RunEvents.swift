import Foundation

// The plain facts of a run that the record carries and every report shows: the timeline, each writer's
// commits, each operation (backup, restore, sidecar, CloudKit step) and each fault rule.

/// One thing that happened, at a time since the run began, by an actor (writer-1, backup-0, faultfs).
public struct TimelineEvent: Sendable, Codable, Equatable {
    public enum Kind: String, Sendable, Codable { case start, end, commit, fault, crash, recovery, error, note }
    public var t: Double
    public var actor: String
    public var kind: Kind
    public var detail: String

    public init(t: Double, actor: String, kind: Kind, detail: String) {
        self.t = t
        self.actor = actor
        self.kind = kind
        self.detail = detail
    }
}

public struct WriterSummary: Sendable, Codable, Equatable {
    public var writer: Int
    public var committed: Int
    public var failed: Int
    public var inFlight: Int
    public var firstCommit: Double?
    public var lastCommit: Double?
    /// Commit times, for the timeline (thinned to at most a few hundred).
    public var commitTimes: [Double]

    public init(writer: Int, committed: Int, failed: Int, inFlight: Int, firstCommit: Double?, lastCommit: Double?, commitTimes: [Double]) {
        self.writer = writer
        self.committed = committed
        self.failed = failed
        self.inFlight = inFlight
        self.firstCommit = firstCommit
        self.lastCommit = lastCommit
        self.commitTimes = commitTimes
    }
}

public struct OperationSummary: Sendable, Codable, Equatable {
    public var name: String
    public var action: String
    public var strategy: String
    public var start: Double
    public var end: Double
    public var succeeded: Bool
    public var store: String
    public var details: [String: String]
    public var error: String?

    public init(name: String, action: String, strategy: String, start: Double, end: Double, succeeded: Bool, store: String,
                details: [String: String], error: String?) {
        self.name = name
        self.action = action
        self.strategy = strategy
        self.start = start
        self.end = end
        self.succeeded = succeeded
        self.store = store
        self.details = details
        self.error = error
    }
}

public struct FaultSummary: Sendable, Codable, Equatable {
    /// "rule 2": what reports show (records written before `rule` existed have only this).
    public var name: String
    /// The rule's index in the scenario's `faults.rules`: what walks and probes look a rule's result up by.
    public var rule: Int?
    public var fired: Int
    public var detail: String
    /// The first call the rule fired on (lifeboat.run/2).
    public var hit: FaultHit?

    public init(name: String, fired: Int, detail: String) {
        self.name = name
        self.fired = fired
        self.detail = detail
    }
}

extension [FaultSummary] {
    /// The result of the scenario's rule at `index` (`faults.rules[index]`), if it was armed.
    public func forRule(_ index: Int) -> FaultSummary? { first { $0.rule == index } }
}

/// The call a fault rule first fired on: what it was, where, and which writer or step made it.
public struct FaultHit: Sendable, Codable, Equatable {
    public var op: String
    public var path: String
    /// From the op log, when the run kept one.
    public var offset: Int64?
    public var length: Int64?
    /// The child that made the call ("writer-1", "backup-0"), found from the caller's pid and its ancestors.
    public var actor: String?
    public var pid: Int32?
    public var command: String?
    /// Wall-clock time of the call (seconds since 1970).
    public var at: Double?

    public init(op: String, path: String, offset: Int64? = nil, length: Int64? = nil, actor: String? = nil, pid: Int32? = nil,
                command: String? = nil) {
        self.op = op
        self.path = path
        self.offset = offset
        self.length = length
        self.actor = actor
        self.pid = pid
        self.command = command
    }

    /// "write /Library.sqlite-wal @4152 +4096 by writer-1".
    public var summary: String {
        var text = "\(op) \(path)"
        if let offset { text += " @\(offset)" }
        if let length { text += " +\(length)" }
        text += " by \(actor ?? command.map { "pid \(pid ?? 0) (\($0))" } ?? "an unknown process")"
        return text
    }
}
