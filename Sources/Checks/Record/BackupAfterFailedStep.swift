import Foundation

/// A backup that reported success, read again at the end of a run in which a later backup step failed: what that
/// failing program left of the previous good backup (`previous-backup-intact`). A program that reports failure
/// is right to; deleting or changing the backup it was meant to add to is not.
public struct BackupAfterFailedStep: Sendable, Codable {
    /// The failed step ("backup-1 (command)").
    public var failedStep: String
    /// The backup as the run's end found it; nil when it is missing or cannot be read (`error`).
    public var state: StoreState?
    public var missing: Bool
    public var error: String?

    public init(failedStep: String, state: StoreState?, missing: Bool, error: String?) {
        self.failedStep = failedStep
        self.state = state
        self.missing = missing
        self.error = error
    }
}
