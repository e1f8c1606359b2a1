import Foundation
import StoreModel

/// One run of a strategy in a child of the engine (`lifeboat step --config FILE`): the operation, the strategy,
/// what it reads and writes, every option, and the engine's own handshakes with the child (a start gate, a hold
/// at page N, a step gate for the turns scheduler; all in `options` but the start gate). One JSON file written by
/// the engine and read by the child, both through this type: no argv is built by hand and parsed back, and no
/// hidden flag sits on the commands a person types (`lifeboat backup`, `restore`, `relocate`).
public struct StrategyRun: Sendable, Codable, Equatable {
    public enum Action: String, Sendable, Codable {
        case backup, restore, relocate
    }

    public var action: Action
    public var strategy: String
    /// backup: the live store; restore: the backup; relocate: the store's current file.
    public var source: String
    /// backup: the directory that receives the backup; restore: the live store to restore over; relocate: the
    /// store's new file.
    public var destination: String
    public var options: StrategyOptions
    /// Wait for this file to exist before doing anything: the engine arms the fault rules scoped to this process
    /// (`actor`) once it has started, and a quick program could otherwise make its first calls before that.
    public var startGate: String?

    public init(action: Action, strategy: String, source: String, destination: String, options: StrategyOptions, startGate: String? = nil) {
        self.action = action
        self.strategy = strategy
        self.source = source
        self.destination = destination
        self.options = options
        self.startGate = startGate
    }

    /// Runs it: the strategy from the catalog (an unknown name throws `UnknownStrategy`), with the app's model
    /// read from the store it starts from.
    public func perform() throws -> StrategyOutcome {
        let source = URL(fileURLWithPath: self.source)
        let destination = URL(fileURLWithPath: self.destination)
        let model = ManagedObjectModel.appModel(for: source, fallback: .library)
        switch action {
        case .backup: return try StrategyCatalog.backup(named: strategy).backup(live: source, into: destination, model: model, options: options)
        case .restore: return try StrategyCatalog.restore(named: strategy).restore(backup: source, over: destination, model: model, options: options)
        case .relocate: return try StrategyCatalog.relocation(named: strategy).relocate(from: source, to: destination, model: model, options: options)
        }
    }
}
