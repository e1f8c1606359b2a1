import FaultVocabulary
import Foundation

/// A drill: the store to start from, the writers, the schedule of backups and restores, the faults, the
/// invariants to check and the verdict expected. Every field but `name` has a default, so a scenario says only
/// what it changes; `extends:` takes another file's values as defaults.
public struct Scenario: Sendable, Equatable, Codable {
    public var name: String
    public var description = ""
    /// One seed drives the generated store, the writers' choices, the fault dice and the scheduler.
    public var seed: UInt64 = 1
    public var store = StoreSpec()
    public var writers = WriterSpec()
    public var schedule: [Step] = []
    /// Programs that run beside the writers (`Scenario+Sidecars.swift`).
    public var sidecars: [Sidecar] = []
    public var faults = FaultPlan()
    /// Invariant names to check; empty means every one that applies.
    public var invariants: [String] = []
    public var expect = Expectation.pass
    /// Bounds on the steps' measurements and their ratios (`expect_metrics:`), judged as `metrics-within-bounds`.
    public var expectMetrics: [MetricExpectation] = []
    /// The model the app opens its store with after a restore ("library", "library-v2" or
    /// "library-type-change"), and the two lightweight-migration options it passes
    /// (NSMigratePersistentStoresAutomaticallyOption, NSInferMappingModelAutomaticallyOption): how an app update
    /// meets an old backup.
    public var appModel = "library"
    public var migrateAutomatically = false
    public var inferMappingModel = false
    /// Both options on (`lightweight_migration: true`), as a careful app passes them.
    public var lightweightMigration: Bool {
        get { migrateAutomatically && inferMappingModel }
        set { (migrateAutomatically, inferMappingModel) = (newValue, newValue) }
    }
    /// What the app does when its store will not open (`incompatible_store:`): `fail` (reports the error) or
    /// `move-aside` (seed 004's recovery: the store is moved into `Incompatible/` and `addPersistentStore`
    /// creates a new, empty store in its place).
    public var incompatibleStore = "fail"
    /// `free`: writers run as fast as the OS schedules them. `turns`: writers take turns, one transaction at a
    /// time, in an order drawn from the seed, and a step runs while a seeded number of turns is granted: the
    /// replay mode, in which the same seed gives the same interleaving of commits and steps.
    public var scheduler = "free"
    /// Seconds after which the run is stopped and reported as an error.
    public var timeLimit: Double = 300
    /// Reader processes that hold read transactions while the writers write (nil: none).
    public var readers: ReaderSpec?
    /// The CloudKit zone the store mirrors into (docs/cloudkit.md), kept outside the store's volume; nil: the
    /// scenario has no cloud (a `sync` step then makes one with an available account).
    public var cloud: CloudSpec?

    /// `cloud: {account, setup_deadline, container}`: the iCloud account's status (`unavailable` = signed out),
    /// how long an operation waits on the mirror's setup, and the NSPersistentCloudKitContainer's name.
    public struct CloudSpec: Sendable, Equatable, Codable {
        public var account = "available"
        public var setupDeadline = 2.0
        public var container = "iCloud.com.example.Library"
        public init() {}
    }

    public init(name: String) { self.name = name }

    /// `readers: {count, hold, every}`: processes that read the whole store in one read transaction, keep it
    /// open `hold` seconds (an app's UI fetch), and start the next one `every` seconds later.
    public struct ReaderSpec: Sendable, Equatable, Codable {
        public var count = 1
        public var hold = 1.0
        public var every = 0.0
        /// `stop` (default): a restore quits the readers first, as an app closes its stack; `keep`: they read on
        /// across the restore with their connections open (`connections-agree` checks what they see after it).
        public var acrossRestore = "stop"
        /// `stop` (default): a `relocate` quits the readers first and starts them again on the store at its new
        /// place once the move has ended; `keep`: they read on with the old store open (a widget that was not
        /// told), and `relocation-carries-commits` reports what they saw after the move.
        public var acrossRelocate = "stop"
        public init() {}
    }

    public struct StoreSpec: Sendable, Equatable, Codable {
        public var objects = 300
        public var blobFraction = 0.2
        public var blobSize = 128 * 1024
        public var journalMode = "wal"
        /// `auto_vacuum` of the generated store: `none` (the model's default) or `incremental` (as real Core Data
        /// stores have it; docs/fidelity.md).
        public var autoVacuum = "none"
        /// Give the generated store Core Data's persistent-history tables (`ACHANGE`, `ATRANSACTION`, ...), recorded
        /// into on every save, as a store opened with NSPersistentHistoryTrackingKey has.
        public var history = false
        /// Generate the store with entity inheritance (an `Item` hierarchy sharing the root's table); writers
        /// then insert, update and delete objects of its entities too.
        public var inheritance = false
        /// Generate a CloudKit-mirrored store (`ANSCK*` tables and history, docs/cloudkit.md).
        public var cloudkit = false
        /// Bytes of free pages the generated store's file starts with, ahead of its objects (`free_space:`): a
        /// store past 1 GiB, whose objects lie beyond SQLite's lock-byte page, without writing a gigabyte.
        public var freeSpace = 0
        /// A user's own store to drill on instead of a generated one (`from:`, relative to the scenario file,
        /// resolved to an absolute path): the run copies it, with its -wal and support folder, as the live store.
        public var from: String?
        /// No store before the run (`fresh: true`): the first writer's first open creates the file and its schema
        /// (`PersistentStore`, as Core Data's first `addPersistentStore` does) and its first save is the store's
        /// first commit. Nothing is generated, so the crash states of a store's first commits can be enumerated.
        public var fresh = false
        public init() {}
    }

    public struct WriterSpec: Sendable, Equatable, Codable {
        public var count = 2
        /// Transactions per writer.
        public var transactions = 100
        /// Transactions per second per writer; 0 = as fast as they go.
        public var rate = 0.0
        public var mix = Mix()
        /// Share of inserts and updates that carry an attachment, and its size.
        public var blobFraction = 0.2
        public var blobSize = 110 * 1024
        /// PRAGMA synchronous of the writers' connections.
        public var synchronous = "full"
        /// `auto` (SQLite's default of 1000 pages), `none` (commits stay in the -wal), `frequent` (every 16
        /// pages, so the -wal restarts often), or `truncate` (a TRUNCATE checkpoint after every commit).
        public var checkpoint = "auto"
        /// Seconds a replaced or deleted external data file stays on disk after the save that made it obsolete
        /// (`writers.external_data_grace`); nil means the store layer's default (`StoreOptions`). At 0 a backup that
        /// copies the support folder after its database snapshot can miss files, as it can with Core Data.
        public var externalDataGrace: Double?
        /// fsync each new external data file and its folder before the commit (`writers.sync_external_data`).
        /// Off by default: Core Data's save path does not (docs/fidelity.md).
        public var syncExternalData = false
        /// `keep` (default): writers still running when a restore comes keep their connections open across it, as
        /// an app that restores without closing its stack; `stop`: they are killed first (the app quits).
        public var acrossRestore = "keep"
        /// `stop` (default): no writer writes after a restore. `continue`: once a restore has ended, a new round
        /// of `count` writers (fresh processes, the app relaunched on the restored store) commits `transactions`
        /// each against it; each round has its own writer numbers, and the oracle follows the restore: a round's
        /// history is the restored store plus the commits acknowledged after it (docs/events.md, "Restore, then
        /// continue"). Writers of the earlier round still running then are stopped once the restore has ended.
        public var afterRestore = "stop"
        /// `stop` (default): writers still running when a `relocate` comes are stopped before the move (the app
        /// closes its stack to move it) and, once the move has ended, a new round of writers starts on the store
        /// at its new place (the app relaunched there). `keep`: they keep the old store open across the move and
        /// go on committing to it (a widget or an extension that was not told); the new round starts all the
        /// same, and `relocation-carries-commits` says where every commit of the kept writers went.
        public var acrossRelocate = "stop"
        public init() {}
    }

    /// Weights of the writers' operations.
    public struct Mix: Sendable, Equatable, Codable {
        public var insert = 50
        public var update = 30
        public var delete = 10
        public var link = 10
        public init() {}
        public var total: Int { insert + update + delete + link }
    }

    /// One entry of `schedule:`: an event of the run's timeline. Its kind (`action`) is the key that names it in
    /// the file (`backup: STRATEGY`, `restore: STRATEGY`, ...); each kind parses its own keys
    /// (`ScheduleEntryKind`), and the runner dispatches it to that kind's handler, so a new kind needs no edit here.
    public struct Step: Sendable, Equatable, Codable {
        /// The kind of the entry: an open set of names, one per registered kind.
        public struct Action: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
            public var rawValue: String
            public init(rawValue: String) { self.rawValue = rawValue }
            public static let backup = Action(rawValue: "backup")
            public static let restore = Action(rawValue: "restore")
            public var description: String { rawValue }
        }
        public var action: Action
        public var strategy: String
        /// When: after this many commits in all (`after_commits`), at this second (`at_seconds`), or once the
        /// writers have finished (`after_writers`, the default for restores).
        public var afterCommits: Int?
        public var atSeconds: Double?
        public var afterWriters = false
        /// Relative to another entry (index in `schedule`): once it has finished (`after_step`), or while it runs
        /// (`during_step`, `delay` seconds after it started; a backup's or restore's process is running then).
        /// Restores only: restore the store as it was at this second of the run (a point-in-time restore; the
        /// tool gets the moment as LIFEBOAT_RESTORE_TIME, ISO 8601 UTC, and LIFEBOAT_RESTORE_SECONDS), checked by
        /// `restore-at-time` instead of `restore-equals-backup`.
        public var atTime: Double?
        public var afterStep: Int?
        public var duringStep: Int?
        public var delay: Double?
        /// Repeat every N commits, this many times in all (backups only).
        public var everyCommits: Int?
        public var times = 1
        /// `fresh`: each backup into a new directory; `reuse`: the same directory every time (how migrate
        /// duplicates show up).
        public var destination = "fresh"
        /// Strategy settings.
        public var pagesPerStep: Int?
        public var stepDelay: Double?
        /// backup-api: fail once the copy has restarted this many times.
        public var maxRestarts: Int?
        public var command: String?
        public var copyExternalData: Bool?
        public var allowClone: Bool?
        /// migrate strategies: `append` (default) or `overwrite` an existing destination (contested; docs/fidelity.md).
        public var migrateExisting: String?
        /// The keys of the entry's kind that no other kind has, typed by that kind (`StepDetails`); `.none` for a
        /// kind without keys of its own, and for a backup or restore whose coordinator keys have their defaults.
        public var details: StepDetails = .none
        public init(action: Action, strategy: String, details: StepDetails = .none) {
            self.action = action
            self.strategy = strategy
            self.details = details
        }
    }

    /// The keys of one schedule entry kind, one case per kind that has keys of its own, each payload declared in
    /// the kind's file (Sources/Scenario/Schedule) with its defaults, so the parser writes it, the renderer and
    /// the runner read it typed (`step.damage?.target`), and no kind's keys travel as text. The fields every
    /// kind shares (triggers) and the strategy settings of backups and restores stay on `Step`.
    public enum StepDetails: Sendable, Equatable, Codable {
        case none
        /// `damage:` (DamageEntry.swift).
        case damage(Damage)
        /// `sidecar:`'s `action:` (SidecarActionEntry.swift).
        case sidecar(SidecarAction)
        /// `relocate:` (CloudEntry.swift).
        case relocate(Relocation)
        /// `cleanup:` (CleanupEntry.swift).
        case cleanup(Cleanup)
        /// `device:` (CloudAccountEntry.swift).
        case device(SecondDevice)
        /// `backup:` with `coordinator:` and `saves_after_migrate:` (CopyStepEntry.swift).
        case copy(Copy)
    }

    /// Faults for FaultFS. Rules need FaultFS; a crash without it (and without `mount: true`) is a process crash
    /// only: the processes holding the store are killed, but what the kernel had buffered survives.
    public struct FaultPlan: Sendable, Equatable, Codable {
        public var mount = false
        /// Write backups on the store's volume (FaultFS when mounted) instead of beside it, so a crash after a
        /// backup reported success shows whether the backup itself was made durable (`backup-durable`).
        public var backupsOnVolume = false
        public var rules: [Rule] = []
        public var crash: Crash?
        /// The simulated disk's tear guarantees (FaultFS only); nil: FaultFS's default (512-byte tears).
        public var device: Device?
        /// `on` or `off`: whether a durable operation on FaultFS also flushes the host device (FaultFS's
        /// `--host-sync`; see its crash model); nil: FaultFS's default. No verdict depends on it.
        public var hostSync: String?
        /// What a file holds after an fsync a rule failed with EIO, as on this file system (FaultFS's
        /// `--fsync-failure`); nil: FaultFS's default (the data stays pending, a retry persists it).
        public var fsyncFailure: FsyncFailure?
        public init() {}
        public var needsFaultFS: Bool { mount || !rules.isEmpty || device != nil }
    }

    /// One fault rule: which operations on which paths, when, and what happens.
    public struct Rule: Sendable, Equatable, Codable {
        public var ops: [FaultOp] = [.write]
        public var path = "*"
        public var nth: Int?
        public var after: Int?
        public var probability: Double?
        /// What happens to a matching call (`FaultAction.Kind` lists the kinds; its text is the file's `action:`).
        public var action = FaultAction.errno(.EIO)
        /// Arm the rule only while this step runs (index in `schedule`), or from the start when nil.
        public var duringStep: Int?
        /// Only calls of the run's children whose name matches this glob (`writer-1`, `sidecar-litestream`,
        /// `backup-*`), each child with the processes it starts; armed when such a child starts.
        public var actor: String?
        /// Armed only while an instance of this sidecar runs (from its start to its end).
        public var whileSidecar: String?
        /// For `action: hold`: what the app does, in order, while the call is held (`commit N`, `checkpoint
        /// MODE`); the runner then lets the call go on. Turns scheduler only, so the moment is the same every run.
        public var whileHeld: [HoldWork]?
        /// When a matching call fires the rule, from `nth`, `after` or `probability` (none: every call).
        public var trigger: FaultTrigger { FaultTrigger(nth: nth, after: after, probability: probability) }
        public var isScoped: Bool { actor != nil || whileSidecar != nil }
        /// Whether the run's child `name` is this rule's `actor` (nil: the rule names no actor).
        public func hasActor(_ name: String) -> Bool? { actor.map { fnmatch($0, name, 0) == 0 } }
        public init() {}
    }

    /// A simulated crash: the processes holding the store are killed and only durable state survives.
    public struct Crash: Sendable, Equatable, Codable {
        public var afterCommits: Int?
        public var atSeconds: Double?
        /// Crash while this step (index in `schedule`) is running.
        public var duringStep: Int?
        /// With `during_step`: when in the step the crash comes, one of `delay`, `at_page` and `at_end`.
        public var moment = Moment.delay(Moment.defaultDelay)
        /// Which of the writes not yet durable survive.
        public var mode = CrashMode.keepNone
        public init() {}

        /// The moment of a crash `during_step`: exactly one, so no code has to know which of three fields
        /// applies. Not `Codable` itself: `Crash` writes it in the keys it always had (below).
        public enum Moment: Sendable, Equatable {
            /// `delay: S`: seconds after the step started.
            case delay(Double)
            /// `at_page: N`: the moment the step's copy has written this many pages (SQLite pages for backup-api
            /// and replace, 4 KiB pieces for the file copies); exact, unlike a delay.
            case atPage(Int)
            /// `at_end: true`: the moment the step's program has ended, however long it takes, so the crash comes
            /// when the program reports success. Under `turns` no writer takes a turn while the step runs (a crash
            /// by a delay gets a seeded number of turns beside the copy), so every run crashes the same store in
            /// the same state: `try --deep`'s crash after success, whose repro and shrunk repro then replay the
            /// same finding every time.
            case atEnd

            /// The delay of a crash whose file names no moment (and of one not `during_step`).
            public static let defaultDelay = 0.05
        }

        /// The keys the crash had as three fields (`delay` always, `atPage` and `atEnd: true` when they applied):
        /// a scenario's JSON is hashed into its campaign fingerprint (`Campaign.fingerprint`), which suite folders
        /// and deep-search shards written before compare with, so it stays byte for byte what it was.
        enum CodingKeys: String, CodingKey { case afterCommits, atSeconds, duringStep, delay, atPage, atEnd, mode }

        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            afterCommits = try c.decodeIfPresent(Int.self, forKey: .afterCommits)
            atSeconds = try c.decodeIfPresent(Double.self, forKey: .atSeconds)
            duringStep = try c.decodeIfPresent(Int.self, forKey: .duringStep)
            if try c.decodeIfPresent(Bool.self, forKey: .atEnd) == true {
                moment = .atEnd
            } else if let page = try c.decodeIfPresent(Int.self, forKey: .atPage) {
                moment = .atPage(page)
            } else {
                moment = .delay(try c.decodeIfPresent(Double.self, forKey: .delay) ?? Moment.defaultDelay)
            }
            mode = try c.decodeIfPresent(CrashMode.self, forKey: .mode) ?? .keepNone
        }

        public func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encodeIfPresent(afterCommits, forKey: .afterCommits)
            try c.encodeIfPresent(atSeconds, forKey: .atSeconds)
            try c.encodeIfPresent(duringStep, forKey: .duringStep)
            switch moment {
            case .delay(let seconds): try c.encode(seconds, forKey: .delay)
            case .atPage(let page):
                try c.encode(Moment.defaultDelay, forKey: .delay)
                try c.encode(page, forKey: .atPage)
            case .atEnd:
                try c.encode(Moment.defaultDelay, forKey: .delay)
                try c.encode(true, forKey: .atEnd)
            }
            try c.encode(mode, forKey: .mode)
        }
    }

    /// `pass`, or `violation NAME`; NAME may list alternatives, `integrity|snapshot-consistent`, for a mistake
    /// that shows as either (a torn copy of a database and its -wal is malformed or a state that never was,
    /// depending on which pages the race tore).
    public enum Expectation: Sendable, Equatable, Codable, CustomStringConvertible {
        case pass
        case violation(String)
        public var description: String {
            switch self {
            case .pass: "pass"
            case .violation(let invariant): "violation \(invariant)"
            }
        }

        /// The invariants any one of whose violation meets the expectation (empty for `pass`).
        public var invariants: [String] {
            switch self {
            case .pass: []
            case .violation(let names): names.split(separator: "|").map(String.init)
            }
        }
    }
}
