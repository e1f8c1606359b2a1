import Synchronization

/// The kind of file an operation touched, for coverage tables: a user who sees "-wal write: 412 ran, 0 matched"
/// knows their campaign never failed a WAL write.
public enum FileClass: String, Codable, Sendable, CaseIterable {
    case db, wal = "-wal", shm = "-shm", journal = "-journal", externalData = "external-data", directory, other

    /// Extensions of SQLite database files as apps name them (Core Data uses `.sqlite`; `.storedata` is its
    /// binary/XML store name, kept for stores renamed by hand).
    static let databaseExtensions: Set<Substring> = ["sqlite", "sqlite3", "db", "db3", "storedata"]

    /// Classifies by op and path alone (no syscall): directory ops and the root are `directory`; SQLite's
    /// sidecar suffixes decide `-wal`, `-shm`, `-journal`; files under Core Data's `_EXTERNAL_DATA` folder are
    /// `external-data`; a database extension is `db`; anything else is `other`.
    public static func of(_ path: String, op: FaultOp) -> FileClass {
        switch op {
        case .fsyncdir, .mkdir, .rmdir, .opendir, .readdir: return .directory
        default: break
        }
        if path == "/" || path.isEmpty { return .directory }
        if path.hasSuffix("-wal") { return .wal }
        if path.hasSuffix("-shm") { return .shm }
        if path.hasSuffix("-journal") { return .journal }
        if path.contains("_EXTERNAL_DATA/") { return .externalData }
        if path.hasSuffix("_EXTERNAL_DATA") || path.hasSuffix("_SUPPORT") { return .directory }
        let name = path.split(separator: "/").last ?? ""
        if let dot = name.lastIndex(of: "."), databaseExtensions.contains(name[name.index(after: dot)...]) { return .db }
        return .other
    }
}

/// One cell of the coverage table: operations of one kind on one class of file.
public struct CoverageCell: Codable, Sendable, Equatable {
    public var op: String
    public var fileClass: String
    /// Calls that ran (every call that consults the rules, whether or not a rule was armed).
    public var ops: Int
    /// Calls that matched at least one armed rule (its op set and path glob).
    public var matched: Int
    /// Calls on which a rule fired (an injected error, short transfer, delay, lie, crash...).
    public var fired: Int

    public init(op: String, fileClass: String, ops: Int, matched: Int, fired: Int) {
        self.op = op
        self.fileClass = fileClass
        self.ops = ops
        self.matched = matched
        self.fired = fired
    }
}

/// What the `coverage` verb returns: the non-empty cells, and the crash points a run offered versus those it
/// crashed at. Persistence points are the calls after which a crash leaves a different disk: fsync and
/// fdatasync (op `fsync`), fsyncdir and sync-all.
public struct FaultCoverage: Codable, Sendable, Equatable {
    public var cells: [CoverageCell]
    public var persistencePoints: Int
    /// Crashes simulated on this mount (each one crash point explored).
    public var crashes: Int

    public init(cells: [CoverageCell], persistencePoints: Int, crashes: Int) {
        self.cells = cells
        self.persistencePoints = persistencePoints
        self.crashes = crashes
    }
}

/// Lock-free counters, one per (op, file class, ran/matched/fired). FUSE worker threads bump them on every call,
/// so they are relaxed atomics (a reader sees a count that is at most a few calls behind).
final class CoverageCounters: Sendable {
    final class Counter: Sendable {
        let value = Atomic<Int>(0)
    }

    enum Kind: Int { case ran = 0, matched, fired }

    static let ops = FaultOp.allCases
    static let classes = FileClass.allCases
    static let opIndex: [FaultOp: Int] = Dictionary(uniqueKeysWithValues: ops.enumerated().map { ($1, $0) })
    static let classIndex: [FileClass: Int] = Dictionary(uniqueKeysWithValues: classes.enumerated().map { ($1, $0) })

    private let counters: [Counter] = (0..<(ops.count * classes.count * 3)).map { _ in Counter() }
    private let syncAlls = Counter()
    private let crashes = Counter()

    private func index(_ op: FaultOp, _ cls: FileClass, _ kind: Kind) -> Int {
        ((Self.opIndex[op] ?? 0) * Self.classes.count + (Self.classIndex[cls] ?? 0)) * 3 + kind.rawValue
    }

    func add(_ op: FaultOp, _ cls: FileClass, _ kind: Kind) {
        counters[index(op, cls, kind)].value.wrappingAdd(1, ordering: .relaxed)
    }

    func noteSyncAll() { syncAlls.value.wrappingAdd(1, ordering: .relaxed) }
    func noteCrash() { crashes.value.wrappingAdd(1, ordering: .relaxed) }

    func snapshot() -> FaultCoverage {
        var cells: [CoverageCell] = []
        var points = syncAlls.value.load(ordering: .relaxed)
        for op in Self.ops {
            for cls in Self.classes {
                let ran = counters[index(op, cls, .ran)].value.load(ordering: .relaxed)
                guard ran > 0 else { continue }
                if op == .fsync || op == .fsyncdir { points += ran }
                cells.append(CoverageCell(op: op.rawValue, fileClass: cls.rawValue, ops: ran,
                                          matched: counters[index(op, cls, .matched)].value.load(ordering: .relaxed),
                                          fired: counters[index(op, cls, .fired)].value.load(ordering: .relaxed)))
            }
        }
        return FaultCoverage(cells: cells, persistencePoints: points, crashes: crashes.value.load(ordering: .relaxed))
    }
}
