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
    /// Seconds an external data file outlives the save that made it obsolete. Core Data removes such files
    /// lazily, not in the save, so a reader's snapshot (a backup, a migrate) taken just before still finds them.
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
