import Foundation

/// How a store is opened: the options Core Data takes when a store is added to a coordinator.
public struct StoreOptions: Sendable, Hashable, Codable {
    public enum JournalMode: String, Sendable, Codable, CaseIterable { case wal, delete, truncate, memory, off }
    public enum Synchronous: String, Sendable, Codable, CaseIterable { case off, normal, full, extra }

    /// WAL by default, as Core Data uses since iOS 7.
    public var journalMode: JournalMode = .wal
    public var synchronous: Synchronous = .full
    /// `PRAGMA auto_vacuum` of a store this open creates: real Core Data stores are INCREMENTAL (docs/fidelity.md,
    /// "Core Data's SQLite settings"); the model's default stays NONE until every drill is re-measured on it
    /// (scenario key `store.auto_vacuum`). No effect on an existing store.
    public var incrementalAutoVacuum = false
    /// NSMigratePersistentStoresAutomaticallyOption.
    public var migrateAutomatically = false
    /// NSInferMappingModelAutomaticallyOption.
    public var inferMappingModel = false
    public var readOnly = false
    /// Binary values of at least this many bytes go to `_EXTERNAL_DATA` (Core Data's threshold is undocumented).
    public var externalStorageThreshold = 100 * 1024
    /// fsync external data files (and their folder) before the transaction that references them commits.
    /// Core Data does not (iOS 26.1, decompiled: no fsync between the interim write and the rename), so the
    /// default is off; scenario key `writers.sync_external_data` turns it on for another OS version's behaviour.
    public var syncExternalFiles = false
    /// Seconds an external data file outlives the save that made it obsolete (scenario key
    /// `writers.external_data_grace`). Core Data (iOS 26.1, decompiled) deletes replaced and deleted external data
    /// files right after the commit, inside the same `save()`, so the default is 0: a backup that copies the
    /// support folder after its database snapshot misses them, as on a device. A positive grace models a Core Data
    /// that deletes later; it is a knob, not a Core Data figure (docs/fidelity.md).
    public var externalDataGracePeriod: Double = 0
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
