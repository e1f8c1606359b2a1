import Foundation

/// The control protocol: one JSON request per line on the daemon's Unix socket, one JSON reply per line.
/// Requests: `{"verb":"ping"}`, `{"verb":"arm","rule":{...}}`, `{"verb":"disarm","id":"r1"}`, `{"verb":"clear"}`,
/// `{"verb":"rules"}`, `{"verb":"crash","mode":"keep-prefix","n":3}`, `{"verb":"crash","mode":"torn","fill":"zeros"}`,
/// `{"verb":"sync-all"}`, `{"verb":"status"}`, `{"verb":"coverage"}`, `{"verb":"log-mark","label":"..."}`, `{"verb":"shutdown"}`,
/// `{"verb":"fsync-failure","fsyncFailure":"ext4"}`.
/// Replies: `{"ok":true,...}` or `{"ok":false,"error":"..."}`.
public struct ControlRequest: Codable, Sendable, Equatable {
    public var verb: ControlVerb
    public var rule: FaultRule?
    public var id: String?
    public var mode: String?
    public var n: Int?
    public var fill: TornFill?
    public var label: String?
    /// `device`: the tear guarantees of the simulated disk (absent: report the current one).
    public var device: DeviceProfile?
    /// `fsync-failure`: the semantics to set (absent: report the current one).
    public var fsyncFailure: FsyncFailureSetting?

    public init(verb: ControlVerb, rule: FaultRule? = nil, id: String? = nil, mode: String? = nil, n: Int? = nil,
                fill: TornFill? = nil, label: String? = nil) {
        self.verb = verb; self.rule = rule; self.id = id; self.mode = mode; self.n = n; self.fill = fill; self.label = label
    }

    /// A crash request for a mode (`CrashMode.protocolFields`).
    public static func crash(_ mode: CrashMode) -> ControlRequest {
        let fields = mode.protocolFields
        return ControlRequest(verb: .crash, mode: fields.mode, n: fields.n, fill: fields.fill)
    }

    /// The crash mode named by this request, or a message saying what is wrong.
    public func crashMode() -> Result<CrashMode, FaultFSError> {
        do { return .success(try CrashMode(protocolMode: mode, n: n, fill: fill)) } catch {
            return .failure(.badRequest(error.detail ?? "unknown crash mode \(error.text) (\(CrashMode.Kind.allCases.map(\.rawValue).joined(separator: ", ")))"))
        }
    }
}

/// The verbs of the control protocol, written once: the daemon's answer, the mount's calls and the `faultfs ctl`
/// command line all switch over this type, so a new verb that one of them does not handle does not compile.
/// On the wire a verb is its raw value (`"sync-all"`); an unknown one is a decoding error that names the known ones.
public enum ControlVerb: String, Codable, Sendable, CaseIterable {
    case ping, arm, disarm, clear, release, rules, crash
    case syncAll = "sync-all"
    case status, coverage, device
    case fsyncFailure = "fsync-failure"
    case logMark = "log-mark"
    case shutdown

    /// Every verb's wire name, in order, for messages and help.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }

    /// What `faultfs ctl` takes after the verb (nil: nothing).
    public var arguments: String? {
        switch self {
        case .ping, .rules, .status, .coverage, .syncAll, .clear, .shutdown: nil
        case .disarm, .release: "ID"
        case .crash: "[MODE]"
        case .fsyncFailure: "[" + (FsyncFailure.allCases.map(\.rawValue) + ["none"]).joined(separator: "|") + "]"
        case .device: "[DEVICE_JSON]"
        case .logMark: "LABEL"
        case .arm: "RULE_JSON"
        }
    }

    /// `faultfs ctl`'s verbs with their arguments (and `raw REQUEST_JSON`), wrapped for a usage text, then the
    /// crash modes: the one list both usages show.
    public static func usage(width: Int, indent: String) -> String {
        HelpText.wrappedList(allCases.map { verb in verb.arguments.map { "\(verb.rawValue) \($0)" } ?? verb.rawValue } + ["raw REQUEST_JSON"],
                             width: width, indent: indent)
            + "\n" + HelpText.wrappedList(["MODE: " + CrashMode.syntax], width: width, indent: indent)
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let verb = ControlVerb(rawValue: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath,
                                                    debugDescription: "unknown verb \(name) (\(Self.names))"))
        }
        self = verb
    }
}

/// What `fsync-failure` sets: one of `FsyncFailure`'s semantics, or `none` (a failed fsync's data stays pending).
/// On the wire it is the name alone (`"ext4"`, `"none"`), as before it was typed.
public enum FsyncFailureSetting: Codable, Sendable, Equatable {
    case none
    case semantics(FsyncFailure)

    public init(_ semantics: FsyncFailure?) { self = semantics.map { .semantics($0) } ?? .none }

    /// Parses a name; nil when it is none of `ext4`, `xfs`, `btrfs`, `none`.
    public init?(name: String) {
        if name == "none" { self = .none } else if let s = FsyncFailure(rawValue: name) { self = .semantics(s) } else { return nil }
    }

    public var semantics: FsyncFailure? { if case .semantics(let s) = self { s } else { nil } }
    public var name: String { semantics?.rawValue ?? "none" }

    /// The message for a name that is none of them.
    public static func unknown(_ name: String) -> String {
        "fsync-failure must be \(FsyncFailure.allCases.map(\.rawValue).joined(separator: ", ")) or none, not '\(name)'"
    }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.singleValueContainer().decode(String.self)
        guard let setting = FsyncFailureSetting(name: name) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: Self.unknown(name)))
        }
        self = setting
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }
}

/// Per-file unsynced state in a status reply.
public struct FileStatus: Codable, Sendable, Equatable {
    public var path: String
    public var ino: UInt64
    public var pendingOps: Int
    public var unsyncedBytes: Int64
    public var logicalSize: Int64
}

/// A directory-entry change not yet made durable by a directory fsync.
public struct PendingEntry: Codable, Sendable, Equatable {
    public var seq: UInt64
    public var op: String
    public var path: String
    public var path2: String?
}

/// The `status` reply body.
public struct StatusReport: Codable, Sendable, Equatable {
    public var files: [FileStatus]
    public var pendingEntries: [PendingEntry]
    public var openHandles: Int
    public var crashes: Int
    public var rules: Int
    /// Unsynced bytes held in the daemon's RAM now and at most so far, and bytes in the spill file.
    public var unsyncedRAMBytes: Int64?
    public var peakUnsyncedRAMBytes: Int64?
    public var spillBytes: Int64?
    /// Nodes the kernel holds now and at most so far (low-level API; the inode table forgets what it forgets).
    public var nodes: Int?
    public var peakNodes: Int?
    /// FUSE requests served since the mount (with `--high-level`: forgets excluded, a lookup counted as its getattr).
    public var requests: UInt64?
}

/// One reply line. Only the fields that the verb produces are present.
public struct ControlReply: Codable, Sendable {
    public var ok: Bool
    public var error: String?
    public var id: String?
    public var rules: [RuleStatus]?
    public var crash: CrashReport?
    public var status: StatusReport?
    public var synced: Int?
    public var seq: UInt64?
    public var version: Int?
    /// `coverage`: ran/matched/fired per op and file class, persistence points and crashes.
    public var coverage: FaultCoverage?
    /// `coverage`: whether a `crash` rule froze the volume and a crash is due.
    public var frozen: Bool?
    /// `device`: the profile in force.
    public var device: DeviceProfile?
    /// `fsync-failure`: the semantics in force (`none` when unset).
    public var fsyncFailure: FsyncFailureSetting?
    /// `release`: how many held calls went on.
    public var released: Int?

    public init(ok: Bool, error: String? = nil) { self.ok = ok; self.error = error }

    public static func failure(_ message: String) -> ControlReply { ControlReply(ok: false, error: message) }
}

/// Version of the control protocol, reported by ping.
public enum FaultFSVersion {
    public static let protocolVersion = 1
}
