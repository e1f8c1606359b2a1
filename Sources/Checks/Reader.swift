import Foundation
import GRDB
import StoreModel

/// One reader process: an app's UI that fetches everything in a read transaction and keeps that transaction
/// open for a while (`hold`), again and again (`every` seconds apart), until the runner stops it. Why: a
/// reader's open snapshot is what makes a PASSIVE checkpoint stop short and the -wal grow, and what restarts
/// an online backup; with writers only, mistakes that depend on it cannot show. Each snapshot is recorded
/// (begin and end times, every note's state hash) so the runner checks it against the writers' histories: a
/// reader must see a prefix of every writer's commits.
public struct Reader: Sendable {
    public struct Configuration: Sendable, Codable {
        public var store: String
        /// JSON lines, one `ReaderSnapshot` each.
        public var output: String
        public var index: Int
        public var hold: Double
        public var every: Double
        /// Unix time of the run's start; snapshot times are relative to it.
        public var epoch: Double
        /// Started on the store the run began with, before any program under test ran: a failure to open it is
        /// the harness's (or the environment's), never a finding (`ReaderCommand` says so to the runner).
        public var onRunStartStore: Bool?

        public init(store: String, output: String, index: Int, hold: Double, every: Double, epoch: Double) {
            self.store = store
            self.output = output
            self.index = index
            self.hold = hold
            self.every = every
            self.epoch = epoch
        }
    }

    public let configuration: Configuration

    public init(_ configuration: Configuration) { self.configuration = configuration }

    /// Reads until the runner kills it (or dies: a reader whose parent changed stops). Returns the number of
    /// snapshots taken. A read that fails (the store is being replaced) is skipped, not fatal.
    @discardableResult
    public func run(maxSnapshots: Int = .max) throws -> Int {
        let c = configuration
        let parent = getppid()
        let read = try Self.snapshotReader(URL(fileURLWithPath: c.store), while: { getppid() == parent })
        defer { read.close() }
        let fd = open(c.output, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: c.output]) }
        defer { close(fd) }
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        var taken = 0
        while taken < maxSnapshots, getppid() == parent {
            let began = now()
            var heldFrom = began
            guard let state = try? read.snapshot({
                heldFrom = now()
                usleep(UInt32(min(max(0, c.hold), 3600) * 1_000_000))
            }) else {
                usleep(50_000)
                continue
            }
            let snapshot = ReaderSnapshot(reader: c.index, began: began, read: heldFrom, ended: now(),
                                          notes: Dictionary(uniqueKeysWithValues: state.notes.map { ($0.key.uuidString, $0.value) }),
                                          missingBlobs: state.missingBlobs.map(\.uuidString).sorted())
            var line = try encoder.encode(snapshot)
            line.append(0x0A)
            _ = line.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            taken += 1
            if c.every > 0 { usleep(UInt32(min(c.every, 3600) * 1_000_000)) }
        }
        return taken
    }

    func now() -> Double { Date().timeIntervalSince1970 - configuration.epoch }

    /// How this reader reads the store in one read transaction: through the harness's model for a store this
    /// harness made (the store's own model where it has a hierarchy, as the writers do), or from its layout for
    /// any other Core Data store (a user's `--store`, which no model of ours opens: error 134100), as the writers
    /// and every check read such a store.
    struct SnapshotReader {
        let snapshot: (() -> Void) throws -> StoreState
        let close: () -> Void
    }

    static func snapshotReader(_ url: URL, while alive: () -> Bool) throws -> SnapshotReader {
        // A store still being made (`store.fresh`) is the harness's: its first writer creates it. From that
        // writer's first open until its creating transaction commits the file exists with no table, and read then
        // it would pass for a store of another's layout (no model cache of ours), whose objects every snapshot
        // would name by key: wait for the schema first.
        while alive(), hasNoTableYet(url) { usleep(20_000) }
        if (try? StoreKind.of(url)) == .layout {
            let files = StoreFiles(url)
            let queue = try PlainConnection.open(files.database, readOnly: true)
            return SnapshotReader(snapshot: { hold in try queue.read { db in try StoreState.readLayout(db, files: files, holding: hold) } },
                                  close: { try? queue.close() })
        }
        var options = StoreOptions()
        options.readOnly = true
        let model = ManagedObjectModel.appModel(for: url, fallback: .library)
        let store = try openStore(url, model: model, options: options, while: alive)
        return SnapshotReader(snapshot: { hold in try StoreState.read(store, model: model, holding: hold) }, close: { try? store.close() })
    }

    /// Whether the database file exists and SQLite reads no table in it yet (a missing file is `openStore`'s to
    /// wait for).
    static func hasNoTableYet(_ url: URL) -> Bool {
        let database = StoreFiles(url).database
        guard FileManager.default.fileExists(atPath: database.path), let queue = try? PlainConnection.open(database, readOnly: true, busyTimeout: 1) else { return false }
        defer { try? queue.close() }
        let tables = try? queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM sqlite_master WHERE type = 'table'") }
        return tables == 0
    }

    /// Opens the store, waiting (while `alive`) for one that is still being made: a run that starts with no store
    /// (`store.fresh`) has its first writer create the file and its schema while the app's UI is already up.
    static func openStore(_ url: URL, model: ManagedObjectModel, options: StoreOptions, while alive: () -> Bool) throws -> PersistentStore {
        while true {
            do {
                return try PersistentStore(at: url, model: model, options: options)
            } catch let error as StoreError {
                switch error {
                case .missingStore, .notACoreDataStore: guard alive() else { throw error }
                default: throw error
                }
                usleep(20_000)
            }
        }
    }
}

/// What one reader saw in one read transaction.
public struct ReaderSnapshot: Sendable, Codable {
    public var reader: Int
    /// When the transaction began, when its reads were done (the hold starts), and when it ended.
    public var began: Double
    public var read: Double
    public var ended: Double
    /// Note identity -> state hash, as `StoreState` hashes them.
    public var notes: [String: String]
    public var missingBlobs: [String]

    public init(reader: Int, began: Double, read: Double, ended: Double, notes: [String: String], missingBlobs: [String]) {
        self.reader = reader
        self.began = began
        self.read = read
        self.ended = ended
        self.notes = notes
        self.missingBlobs = missingBlobs
    }

    /// The snapshot as a store state for the oracle.
    public var state: StoreState {
        var state = StoreState()
        for (key, hash) in notes { if let id = UUID(uuidString: key) { state.notes[id] = hash } }
        state.missingBlobs = Set(missingBlobs.compactMap(UUID.init(uuidString:)))
        return state
    }

    /// Every whole line of a reader's file (a reader killed mid-write leaves a torn last line, skipped).
    public static func load(_ url: URL) -> [ReaderSnapshot] {
        guard let data = try? Data(contentsOf: url) else { return [] }
        let decoder = JSONDecoder()
        return data.split(separator: 0x0A).compactMap { try? decoder.decode(ReaderSnapshot.self, from: Data($0)) }
    }
}
