import Foundation
import StoreModel

/// Settings every strategy may read; each uses the ones that apply to it and ignores the rest.
public struct StrategyOptions: Sendable, Hashable, Codable {
    /// backup-api: pages per `sqlite3_backup_step`.
    public var pagesPerStep: Int32 = 64
    /// backup-api: pause between steps in seconds (lets writers in, which makes restarts observable).
    public var stepDelay: Double = 0.001
    /// backup-api: give up after this many restarts.
    public var maxRestarts: Int = 1000
    /// backup-api, vacuum-into, sqlite3-cli: copy the support folder along (raw SQLite knows nothing of it).
    public var copyExternalData = true
    /// replace: clone where the file system can.
    public var allowClone = true
    /// migrate: give the backup journal_mode=DELETE, one self-contained file (docs/pitfalls.md: [begemann]).
    public var singleFileBackup = true
    /// replace: the destination options' journal mode and page size (nil: the source's, as copied).
    public var replaceJournalMode: StoreOptions.JournalMode?
    public var replacePageSize: Int?
    /// migrate: VACUUM the destination.
    public var vacuum = false
    /// migrate: what happens to a destination that already holds a store (append by default; contested, see
    /// docs/fidelity.md). Scenario step key `migrate_existing`, CLI `--migrate-existing`.
    public var migrateExistingDestination: MigrateOptions.ExistingDestination = .append
    /// migrate on a user's store: keep the source's primary keys in a fresh destination (the runner asks for it:
    /// its oracle names such objects by key). CLI `--keep-source-keys`.
    public var keepSourceKeys = false
    /// command: the shell command line (run by /bin/sh -c).
    public var command: String?
    /// command, sqlite3-cli: seconds before the child is killed.
    public var timeout: Double = 600
    /// backup-api, replace, replace-then-readd, relocate-replace, and the file copies of the database file: stop
    /// dead after this many pages (4 KiB for file copies) are copied (the runner's "crash at page N"; no effect
    /// when replace clones).
    public var hold: SQLiteBackup.Hold?
    /// The same strategies: take copy steps in lockstep with the runner's turns scheduler.
    public var gate: SQLiteBackup.Gate?
    /// Store options the coordinator opens stores with.
    public var storeOptions = StoreOptions()
    /// The CloudKit moves (docs/cloudkit.md): the cloud zone's directory, the name the app gave its
    /// `NSPersistentCloudKitContainer` (the seed's cleanup names files after it), and how long an operation
    /// waits on the mirror's setup before it is reported as never finishing.
    public var cloud: String?
    public var cloudKitContainerName = "iCloud.com.example.Library"
    public var mirrorSetupDeadline = 5.0
    /// Moves: keep the store's CloudKit options on while it moves (seed 002's first attempt), so loading the
    /// old store waits on the mirror's setup; `relocate-app-group-cloudkit-on` always does. CLI
    /// `--cloudkit-on-during-move`, scenario `relocate: ... cloudkit: on`.
    public var cloudKitDuringMove = false

    public init() {}

    /// What replace is asked to do under these options.
    public var replaceOptions: ReplaceOptions {
        ReplaceOptions(allowClone: allowClone, backup: SQLiteBackup.Options(hold: hold, gate: gate),
                       journalMode: replaceJournalMode, pageSize: replacePageSize)
    }
}

/// What a strategy did, for the report.
public struct StrategyOutcome: Sendable, Hashable, Codable {
    public var strategy: String
    /// The store the operation produced (the backup, the restored live store, the relocated store).
    public var store: String
    public var seconds = 0.0
    /// Strategy-specific facts: restarts, whether a clone was used, objects loaded, the command's exit status.
    public var details: [String: String] = [:]

    public init(strategy: String, store: URL) {
        self.strategy = strategy
        self.store = store.path
    }
}

/// Makes a backup of a live store (which writers may be using) into a directory.
///
/// The backup store keeps the live store's file name, so `directory/<name>.sqlite` is the backup; a directory
/// reused from an earlier backup is how migrate's append-duplicates show up.
public protocol BackupStrategy: Sendable {
    var name: String { get }
    var summary: String { get }
    func backup(live: URL, into directory: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome
}

/// Puts a backup back in place of the live store (writers stopped).
public protocol RestoreStrategy: Sendable {
    var name: String { get }
    var summary: String { get }
    func restore(backup: URL, over live: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome
}

/// Moves a live store to a new location (docs/pitfalls.md: [slazinski], into an App Group container).
public protocol RelocationStrategy: Sendable {
    var name: String { get }
    var summary: String { get }
    func relocate(from old: URL, to new: URL, model: ManagedObjectModel, options: StrategyOptions) throws -> StrategyOutcome
}

extension BackupStrategy {
    /// The backup store's path inside `directory`.
    public func backupStore(for live: URL, in directory: URL) -> URL {
        directory.appendingPathComponent(live.lastPathComponent)
    }
}

/// Times `body` and records its duration in the outcome it returns.
func timed(_ body: () throws -> StrategyOutcome) rethrows -> StrategyOutcome {
    let started = Date()
    var outcome = try body()
    outcome.seconds = Date().timeIntervalSince(started)
    return outcome
}
