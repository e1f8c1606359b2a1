import Foundation

extension RunRecord {
    /// What an event of the run measured or did, as it returns it to the engine the moment it has it: the engine
    /// adds it to the run's one record (`add`), so an event kind never writes the record itself.
    public enum Entry: Sendable {
        /// A step, an operation or a sidecar action that ran, with what it reported.
        case operation(OperationSummary)
        /// A problem of the run itself (an entry that names nothing, a sync that did not complete).
        case error(String)
        /// A `damage` entry: what it damaged, where, and the bytes.
        case damage(DamageRecord)
    }

    /// Adds what an event returned.
    public mutating func add(_ entry: Entry) {
        switch entry {
        case .operation(let operation): operations.append(operation)
        case .error(let message): errors.append(message)
        case .damage(let damage): damages.append(damage)
        }
    }
}
