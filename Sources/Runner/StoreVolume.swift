import FaultVocabulary
import Foundation
import Scenario

/// Where the live store lives during a run: a plain scratch directory, or FaultFS mounted over one.
public protocol StoreVolume: AnyObject {
    /// The directory the store's files go in (the mountpoint for FaultFS).
    var directory: URL { get }
    /// A short description for the report.
    var label: String { get }
    /// Arms a fault rule; returns its id.
    func arm(_ rule: Scenario.Rule) throws -> String
    func disarm(_ id: String) throws
    /// Drops what is not durable (FaultFS) after the store's processes were killed; `mode` as in scenarios.
    func crash(mode: CrashMode) throws -> String
    /// How often each armed rule fired.
    func firedCounts() throws -> [String: Int]
    func close() throws
}

/// A plain directory: no faults; a crash is a process crash only (what the OS had buffered survives).
public final class PlainVolume: StoreVolume {
    public let directory: URL
    public init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }
    public var label: String { "plain directory" }
    public func arm(_ rule: Scenario.Rule) throws -> String {
        throw RunError.environment("fault rules need FaultFS (set faults.mount or give rules on a FaultFS run)")
    }
    public func disarm(_ id: String) throws {}
    public func crash(mode: CrashMode) throws -> String { "process crash (plain directory: buffered writes survive)" }
    public func firedCounts() throws -> [String: Int] { [:] }
    public func close() throws {}
}

/// Problems of the run itself, not findings about the store.
public enum RunError: Error, CustomStringConvertible {
    case environment(String)
    case timeLimit(Double)
    case interrupted

    public var description: String {
        switch self {
        case .environment(let message): message
        case .timeLimit(let seconds): "the run exceeded its time limit of \(seconds) s and was stopped"
        case .interrupted: "interrupted (SIGINT/SIGTERM): children killed, volume unmounted"
        }
    }
}
