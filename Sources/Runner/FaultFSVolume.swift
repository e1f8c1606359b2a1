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

    /// Converts a scenario rule to FaultFS's form (the parser already typed its ops and action).
    static func rule(_ rule: Scenario.Rule) -> FaultRule {
        FaultRule(ops: rule.ops, path: rule.path, trigger: rule.trigger, action: rule.action)
    }

    public func arm(_ rule: Scenario.Rule) throws -> String {
        let converted = Self.rule(rule)
        if let problem = converted.validationError() { throw RunError.environment("fault rule: \(problem)") }
        return try mount.arm(converted)
    }

    /// Arms a rule for the calls of these process groups only (a rule with `actor:`).
    public func arm(_ rule: Scenario.Rule, processGroups: [Int32]) throws -> String {
        var converted = Self.rule(rule)
        converted.processGroups = processGroups
        if let problem = converted.validationError() { throw RunError.environment("fault rule: \(problem)") }
        return try mount.arm(converted)
    }

    public func disarm(_ id: String) throws { try mount.disarm(id) }

    public func crash(mode: CrashMode) throws -> String {
        let report = try mount.crash(mode)
        var text = "FaultFS dropped \(report.dropped.count) and kept \(report.kept.count) non-durable operation(s)"
        if let cut = report.tornCut, let seq = report.tornSeq { text += "; write \(seq) torn at byte \(cut)" }
        return text
    }

    public func firedCounts() throws -> [String: Int] {
        Dictionary(try mount.rules().compactMap { status in status.rule.id.map { ($0, status.fired) } }, uniquingKeysWith: { a, _ in a })
    }

    public func close() throws { mount.unmount() }
}
