import Foundation
import StoreCheck

/// One backup or restore step of a run: how it ended and what it left, measured right after it (a later backup
/// into a reused directory would overwrite it) and again after a crash that followed it.
public struct StepRecord: Sendable, Codable {
    public enum Action: String, Sendable, Codable { case backup, restore }

    /// `backup-0`, `restore-1.2` (the second time the entry ran).
    public var name: String
    /// The entry's index in the scenario's schedule.
    public var index: Int
    public var action: Action
    public var strategy: String
    public var start: Double
    public var end: Double
    /// The round of writers it ran in.
    public var round: Int
    public var succeeded: Bool
    /// A crash cut it short.
    public var interrupted: Bool
    /// What the program printed when it failed (head and tail).
    public var error: String?
    public var backup: BackupMeasurement?
    public var restore: RestoreMeasurement?

    public init(name: String, index: Int, action: Action, strategy: String, start: Double, end: Double, round: Int,
                succeeded: Bool, interrupted: Bool, error: String?) {
        self.name = name
        self.index = index
        self.action = action
        self.strategy = strategy
        self.start = start
        self.end = end
        self.round = round
        self.succeeded = succeeded
        self.interrupted = interrupted
        self.error = error
    }

    /// "backup-0 (replace)": how verdicts name the step.
    public var label: String { "\(name) (\(strategy))" }
}

/// A backup that reported success: the store it made, read right after it.
public struct BackupMeasurement: Sendable, Codable {
    public var store: StoreMeasurement
    /// The backup is on the store's volume (`faults.backups_on_volume`): a crash can take it away.
    public var onVolume: Bool
    /// What a later crash left of it.
    public var afterCrash: BackupAfterCrash?
    /// What a later backup step that failed left of it (a run without a crash).
    public var afterFailedStep: BackupAfterFailedStep?

    public init(store: StoreMeasurement, onVolume: Bool) {
        self.store = store
        self.onVolume = onVolume
    }
}

/// A backup read back after a crash that came once it had reported success.
public struct BackupAfterCrash: Sendable, Codable {
    /// The crash, in words: "crash (keep-none) right after backup-0: dropped 3 operation(s)".
    public var crash: String
    /// The backup as the crash left it; nil when it is missing or cannot be read (`error`).
    public var state: StoreState?
    public var missing: Bool
    public var error: String?
    /// What the crash dropped under the backup's folder, from the op log.
    public var loss: LossRecord?

    public init(crash: String, state: StoreState?, missing: Bool, error: String?, loss: LossRecord?) {
        self.crash = crash
        self.state = state
        self.missing = missing
        self.error = error
        self.loss = loss
    }
}

/// A restore: the backup it was given, and what it made of the live store.
public struct RestoreMeasurement: Sendable, Codable {
    /// The backup step it restored (its name in `RunRecord.steps`).
    public var source: String
    /// The checker's report of that backup as the restore was given it, read right before the restore began (a
    /// crash since the backup may have taken part of it): what the restore is judged against.
    public var backupAsGiven: Measured<CheckReport>?
    /// The live store right after it (or as the crash that cut it short left it).
    public var live: StoreMeasurement
    /// When the restored store was read (run clock). Writers kept across the restore are stopped from its end
    /// until then, but one may commit in the moment between: `restore-equals-backup` sets aside the objects of
    /// commits acknowledged after the restore ended and before this. Nil in records from before it was kept.
    public var readAt: Double?
    /// `at_time`: the moment (run clock) it restored to.
    public var atTime: Double?
    /// The restored store compared with the backup it was given (`StoreComparison`), for a finished restore
    /// without `at_time`; with the backup as it was before a `damage` entry damaged it.
    public var comparison: Measured<CheckReport>?
    /// The same after a crash that came right after it reported success.
    public var afterCrash: RestoreAfterCrash?
    /// When a `damage` entry damaged the backup it was given: the restored store compared with that backup as it
    /// was before the damage (`restore-detects-damage`; `comparison` is then the same).
    public var undamagedComparison: Measured<CheckReport>?
    /// The app's first open of the restored store, with its model (on a recovered private copy).
    public var open: Measured<OpenedStore>?
    /// The processes that kept their connections across it, and which file each holds.
    public var connections: ConnectionsMeasurement?

    public init(source: String, live: StoreMeasurement) {
        self.source = source
        self.live = live
    }
}

public struct RestoreAfterCrash: Sendable, Codable {
    public var crash: String
    public var comparison: Measured<CheckReport>
    public var loss: LossRecord?

    public init(crash: String, comparison: Measured<CheckReport>, loss: LossRecord?) {
        self.crash = crash
        self.comparison = comparison
        self.loss = loss
    }
}

/// The app's first open of a store: how many objects it reads, how it opened ("opens with Library v1"; "moved
/// aside after 134100, a new store opens"; "no store: addPersistentStore creates a new one"), and what led there.
public struct OpenedStore: Sendable, Codable {
    public var objects: Int
    public var how: String
    public var evidence: [String]

    public init(objects: Int, how: String, evidence: [String] = []) {
        self.objects = objects
        self.how = how
        self.evidence = evidence
    }
}

/// After a restore, each writer and reader that kept its connection open: which see the restored store and
/// which still hold the old one (by device and inode, through /proc/<pid>/fd).
public struct ConnectionsMeasurement: Sendable, Codable {
    public var agreeing: [String]
    /// "writer-1 holds the old store: Library.sqlite inode 12 (deleted), the path is now inode 14".
    public var stale: [String]

    public init(agreeing: [String], stale: [String]) {
        self.agreeing = agreeing
        self.stale = stale
    }
}
