import Foundation

/// How a store is opened: the options Core Data takes when a store is added to a coordinator.
public struct StoreOptions: Sendable, Hashable, Codable {
    public enum JournalMode: String, Sendable, Codable, CaseIterable { case wal, delete, truncate, memory, off }
    public enum Synchronous: String, Sendable, Codable, CaseIterable { case off, normal, full, extra }

    /// WAL by default, as Core Data uses since iOS 7.
    public var journalMode: JournalMode = .wal
    public var synchronous: Synchronous = .full
    /// NSMigratePersistentStoresAutomaticallyOption.
    public var migrateAutomatically = false
    /// NSInferMappingModelAutomaticallyOption.
    public var inferMappingModel = false
    public var readOnly = false
    /// Binary values of at least this many bytes go to `_EXTERNAL_DATA` (Core Data's threshold is undocumented).
    public var externalStorageThreshold = 100 * 1024
    /// fsync external data files before the transaction that references them commits.
    public var syncExternalFiles = true
    /// Seconds an external data file outlives the save that made it obsolete (scenario key
    /// `writers.external_data_grace`). Core Data does not document when it deletes old external data files;
    /// what is known is that it does not delete them inside the save (a reader's snapshot taken just before still
    /// finds them) and that they go later, on a later save or when the coordinator cleans up, after an
    /// unspecified delay. The 5 s default is this model's choice, long enough for the drills' backups to finish
    /// with the files still there; it is not a Core Data figure. Use 0 to model the earliest deletion Core Data
    /// might do, where a backup that copies the support folder after its database snapshot misses files.
    public var externalDataGracePeriod: Double = 5
    /// Seconds to wait on SQLITE_BUSY before failing.
    public var busyTimeout: Double = 30

    public init() {}

    /// Both lightweight-migration options on, as a careful app passes them.
    public static var lightweightMigration: StoreOptions {
        var options = StoreOptions()
        options.migrateAutomatically = true
        options.inferMappingModel = true
        return options
    }
}
