import FaultFS
import Foundation
import Scenario

/// The live store's directory as a FaultFS mount over a backing directory: scenario rules are armed through
/// the control socket and a crash drops what was not made durable, as a power cut would.
public final class FaultFSVolume: StoreVolume {
    public let mount: FaultFSMount
    public var directory: URL { mount.mountpoint }
    public var label: String { "FaultFS (backing \(mount.backing.lastPathComponent), seed \(seed))" }
    let seed: UInt64

    /// Mounts FaultFS at `directory`, backed by a sibling directory; the op log goes to `log`.
    /// `hostSync` ("on"/"off", nil for FaultFS's default) is passed as `--host-sync`, `fsyncFailure` as `--fsync-failure`.
    public init(directory: URL, seed: UInt64, log: URL?, logData: Bool = false, hostSync: String? = nil,
                fsyncFailure: Scenario.FsyncFailure? = nil) throws {
        let backing = directory.deletingLastPathComponent().appendingPathComponent(directory.lastPathComponent + "-backing")
        try FileManager.default.createDirectory(at: backing, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        self.seed = seed
        do {
            mount = try FaultFSMount.start(backing: backing, mountpoint: directory, seed: seed, log: log, logData: logData,
                                           extraArguments: (hostSync.map { ["--host-sync", $0] } ?? [])
                                               + (fsyncFailure.map { ["--fsync-failure", $0.rawValue] } ?? []))
        } catch {
            throw RunError.environment("cannot mount FaultFS on \(directory.path): \(error)")
        }
    }

    /// Converts a scenario rule to FaultFS's form (the parser already checked the text).
    static func rule(_ rule: Scenario.Rule) throws -> FaultRule {
        let ops = try rule.ops.map { name -> FaultOp in
            guard let op = FaultOp(rawValue: name) else { throw RunError.environment("FaultFS has no operation \(name)") }
            return op
        }
        let trigger: FaultTrigger = rule.nth.map { .nth($0) } ?? rule.after.map { .after($0) } ?? rule.probability.map { .probability($0) } ?? .always
        let words = rule.action.split(separator: " ").map(String.init)
        let number = words.count > 1 ? Int(words[1]) : nil
        let action: FaultAction
        switch words.first {
        case "errno": action = .errno(words[1])
        case "short-write": action = .shortWrite(number ?? 0)
        case "short-read": action = .shortRead(number ?? 0)
        case "delay": action = .delay(number ?? 0)
        case "fsync-lie": action = .fsyncLie
        case "fsync-fail-clean": action = .fsyncFailClean
        case "enospc-after": action = .enospcAfter(number ?? 0)
        case "crash": action = .crash
        // The runner releases the call once the app's work in `while_held` is done; a minute at most, so a run
        // whose runner died does not hang.
        case "hold": action = .hold(60_000)
        default: throw RunError.environment("unknown fault action \(rule.action)")
        }
        return FaultRule(ops: ops, path: rule.path, trigger: trigger, action: action)
    }

    static func crashMode(_ text: String) throws -> CrashMode {
        let words = text.split(separator: " ").map(String.init)
        switch words.first {
        case "keep-none": return .keepNone
        case "keep-prefix": return .keepPrefix(words.count > 1 ? Int(words[1]) ?? 0 : 0)
        case "torn": return .torn(fill: words.count > 1 && words[1] == "garbage" ? .garbage : .zeros)
        case "reorder": return .reorder
        default: throw RunError.environment("unknown crash mode \(text)")
        }
    }

    public func arm(_ rule: Scenario.Rule) throws -> String {
        let converted = try Self.rule(rule)
        if let problem = converted.validationError() { throw RunError.environment("fault rule: \(problem)") }
        return try mount.arm(converted)
    }

    /// Arms a rule for the calls of these process groups only (a rule with `actor:`).
    public func arm(_ rule: Scenario.Rule, processGroups: [Int32]) throws -> String {
        var converted = try Self.rule(rule)
        converted.processGroups = processGroups
        if let problem = converted.validationError() { throw RunError.environment("fault rule: \(problem)") }
        return try mount.arm(converted)
    }

    public func disarm(_ id: String) throws { try mount.disarm(id) }

    public func crash(mode: String) throws -> String {
        let report = try mount.crash(try Self.crashMode(mode))
        var text = "FaultFS dropped \(report.dropped.count) and kept \(report.kept.count) non-durable operation(s)"
        if let cut = report.tornCut, let seq = report.tornSeq { text += "; write \(seq) torn at byte \(cut)" }
        return text
    }

    public func firedCounts() throws -> [String: Int] {
        Dictionary(try mount.rules().compactMap { status in status.rule.id.map { ($0, status.fired) } }, uniquingKeysWith: { a, _ in a })
    }

    public func close() throws { mount.unmount() }
}
