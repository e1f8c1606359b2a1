import Checks
import FaultFS
import Foundation
import SeededRandomness
import StoreCheck
import StoreModel
import Runner
import Workload

/// CrashMonkey/ALICE-style crash states from one run's FaultFS op log: at each persistence point (an fsync,
/// fdatasync or directory fsync), the disk may hold what was durable plus any part of what was not. The
/// enumerator builds those states for the store's database files (the .sqlite, -wal and -journal; the -shm is
/// rebuilt by SQLite after a crash, and external data files are written once and renamed, so they are left
/// out), lets SQLite recover each and checks it: integrity, every writer's state a prefix of its history, and
/// every transaction acknowledged before the point present.
public struct CrashStateEnumerator: Sendable {
    /// One crash state: at which barrier, which non-durable operations survive, and how the last write tears.
    public struct State: Sendable, Codable, Equatable {
        public var point: UInt64
        public var variant: String
        public var kept: [UInt64]
        public var tornCut: Int?
    }

    public struct Failure: Sendable, Codable {
        public var state: State
        public var problems: [String]
    }

    public struct Summary: Sendable, Codable {
        public var schema = "lifeboat.crash-states/1"
        public var persistencePoints = 0
        public var pointsChecked = 0
        public var statesChecked = 0
        public var statesFailed = 0
        /// States examined afresh (opened, verified, read against the oracle): the rest reused the examination
        /// of an identical state (same operations, or same pages once SQLite recovered them).
        public var statesExamined = 0
        public var statesReused = 0
        /// The reused states by reduction: built from the same sequence of operations as one already examined
        /// (states grouped by the operations that produced them), or recovered by SQLite to the same pages
        /// (dedup by recovered content). They sum to `statesReused`.
        public var statesSameOperations = 0
        public var statesSameContent = 0
        public var seconds = 0.0
        public var statesPerSecond = 0.0
        /// CPU seconds (user + system) of this process during the enumeration: the figure load on a shared
        /// machine does not inflate, so throughput can be compared across runs.
        public var cpuSeconds = 0.0
        /// Where the time went: building states in memory and writing them (the first walk over the log
        /// included), fingerprinting (SQLite's recovery and a hash of the pages), and examining the distinct
        /// ones; at `--jobs N` summed over the units that ran at once, so they can add up to more than `seconds`.
        public var secondsBuilding = 0.0
        public var secondsFingerprinting = 0.0
        public var secondsExamining = 0.0
        public var failures: [Failure] = []
        public var variants: [String: Int] = [:]
        /// Every checked point in log order, the end of the log last.
        public var points: [PointCount] = []
        /// States whose main file was missing or shorter than one page beside a `-wal` holding committed frames
        /// (https://github.com/tursodatabase/turso/pull/4899), and what opening a private copy of each did.
        public var shortMain = ShortMain()
    }

    /// One checked persistence point: how many operations were pending there, how many states it had, and how
    /// each was settled (examined afresh, or skipped by a reduction: built from the same operations as one
    /// examined, or recovered to the same pages), so the report says what each point cost and covered.
    public struct PointCount: Sendable, Codable, Equatable {
        public var point: UInt64
        public var op: LoggedOp
        public var pending = 0
        /// Of the pending operations, the directory-entry changes (their surviving ones are a prefix).
        public var pendingEntries = 0
        public var states = 0
        public var examined = 0
        public var sameOperations = 0
        public var sameContent = 0
        public var failed = 0
    }

    public struct ShortMain: Sendable, Codable, Equatable {
        public var states = 0
        /// Of those: the open showed an empty database; the open deleted the `-wal`; an acknowledged commit was lost.
        public var openedEmpty = 0
        public var walDeleted = 0
        public var failed = 0
        /// The first such state: where, and what opening it did.
        public var first: String?
        public init() {}
    }

    let records: [OpRecord]
    let log: URL
    /// The store's database files at the log mark (everything durable then), by mount-relative path.
    let start: [String: Data]
    let trackedPrefix: String
    let oracle: Oracle
    /// Run time minus log time: converts barrier times to the history's clock.
    let clockOffset: Double
    /// The support folder every state shares: external data files are written once under a fresh name and
    /// removed only after a grace period, so the folder as the run left it holds every file any state refers to.
    let supportFolder: URL?
    /// Inodes renamed onto a tracked path somewhere in the log: their writes are followed from the start.
    let followed: Set<UInt64>
    /// The run's restores: from each one's start on, the backup it restores is a right state too.
    var restores: [CrashStateRestore] = []

    /// - Parameters: `records` from the mark on; `start` the files at the mark; `databaseName` e.g. "/Library.sqlite".
    public init(records: [OpRecord], log: URL, start: [String: Data], databaseName: String, oracle: Oracle, clockOffset: Double,
                supportFolder: URL? = nil) {
        self.supportFolder = supportFolder
        self.records = records
        self.log = log
        self.start = start
        trackedPrefix = databaseName
        self.oracle = oracle
        self.clockOffset = clockOffset
        followed = Set(records.filter { $0.op == .rename && $0.result >= 0 }.compactMap { record in
            let target = record.path2
            return target == databaseName || target == databaseName + "-wal" || target == databaseName + "-journal" ? record.ino : nil
        })
    }

    func tracked(_ path: String?) -> Bool {
        guard let path else { return false }
        return path == trackedPrefix || path == trackedPrefix + "-wal" || path == trackedPrefix + "-journal"
    }

    /// Whether `record` concerns a tracked file: by its path, or by its inode when that file is renamed onto a
    /// tracked path later in the log (a restore that writes a temporary file and renames it into place).
    func tracked(_ record: OpRecord) -> Bool {
        tracked(record.path) || tracked(record.path2) || record.ino.map { followed.contains($0) } == true
    }

    /// The entry changes a crash state keeps or drops one at a time (the ones a store and its backups make).
    static let entryOps: Set<LoggedOp> = [.create, .unlink, .rename]

    /// Applies one operation to an in-memory image of the files (`CrashStateFiles`: names and the inodes behind them).
    func apply(_ record: OpRecord, to files: inout CrashStateFiles, tornCut: Int? = nil, payloads: inout CrashStatePayloads) throws {
        guard record.result >= 0, let path = record.path, tracked(record) else { return }
        let inode = files.inode(of: record, path: path)
        switch record.op {
        case .write, .copyFileRange:
            guard let inode, let offset = record.offset, var payload = try payloads.payload(of: record) else { return }
            if let tornCut { payload = payload.prefix(tornCut) + Data(count: max(0, payload.count - tornCut)) }
            // In place (the dictionary's own storage, never a copy of the file per write: durable files are
            // written to by every synced operation, and a copy of a megabytes-long -wal for each was most of the time).
            files.modify(inode) { Self.write(payload, at: Int(offset), into: &$0) }
        case .truncate:
            guard let inode, let size = record.size else { return }
            files.modify(inode) { Self.resize(&$0, to: Int(size)) }
        case .fallocate:
            guard let inode, let size = record.size else { return }
            files.modify(inode) { if $0.count < Int(size) { $0.append(Data(count: Int(size) - $0.count)) } }
        case .create:
            if let inode { files.create(path, inode: inode) }
        case .unlink:
            files.unlink(path, inode: record.ino == 0 ? nil : record.ino)
        case .rename:
            if let target = record.path2 { files.rename(path, to: target, inode: inode) }
        default:
            return
        }
    }

    /// The persistence points to check: up to `maxPoints` of the barriers that concern the store's files (spread by
    /// the seed) and the first point after each restore's success (`afterRestores`); the end of the log is checked
    /// besides them. Also the number of persistence points in the log.
    func chosenPoints(maxPoints: Int, seed: UInt64) -> (chosen: Set<UInt64>, persistencePoints: Int) {
        let barriers = records.filter { $0.op.isBarrier && $0.result >= 0 }
        var random = SeededRandom(seed: seed)
        var chosen = Set<UInt64>()
        // A sync-all (a child's sync(2), the flush at unmount) makes every file durable, the tracked ones too. A
        // file is tracked by its inode as well as its name: the fsync of a restore's temporary copy, renamed into
        // place later, is a persistence point of the store's files.
        let interesting = barriers.filter { tracked($0) || $0.op == .fsyncdir || $0.op == .syncAll }
        if interesting.count <= maxPoints {
            chosen = Set(interesting.map(\.seq))
        } else {
            while chosen.count < maxPoints { chosen.insert(interesting[Int(random.next() % UInt64(interesting.count))].seq) }
        }
        chosen.formUnion(afterRestores(interesting))
        return (chosen, barriers.count)
    }

    /// Checks up to `maxPoints` persistence points (spread by the seed), the first point after each restore's
    /// success and the end of the log with every variant, and judges every state (`enumerate`, then
    /// `CrashStateRows.summary`). `loop` runs the points' units at `loop.jobs` at a time; the summary is the same
    /// at any `jobs`.
    /// `reuse: false` examines every state afresh (the straightforward path the fast one is tested against);
    /// `verdict` sees every state checked with its problems (empty when it held), in the log's order.
    public func run(scratch: URL, maxPoints: Int, seed: UInt64, reuse: Bool = true, loop: Runner.RunLoop = Runner.RunLoop(),
                    progress: (@Sendable (String) -> Void)? = nil, verdict: ((State, [String]) -> Void)? = nil) throws -> Summary {
        try enumerate(scratch: scratch, maxPoints: maxPoints, seed: seed, reuse: reuse, loop: loop, progress: progress)
            .summary(verdict: verdict)
    }

    /// The first point after each restore reported success, checked whatever the seed chose (so up to one point
    /// per restore beyond `maxPoints`): a crash right then finds what the restore left not yet durable, such as
    /// its rename into place without a folder fsync (B8), and the state where that rename is lost is one of
    /// that point's. Later points see less: the next folder fsync (SQLite's, when it creates the `-wal`; the
    /// flush at unmount) settles the rename. Sampled among hundreds of the writers' points, it was almost never
    /// chosen, and the end of the log comes after the unmount's flush.
    func afterRestores(_ interesting: [OpRecord]) -> Set<UInt64> {
        Set(restores.compactMap { restore in
            restore.end.flatMap { end in interesting.first { $0.t + clockOffset >= end }?.seq }
        })
    }

    /// The variants at one point: nothing pending kept, growing prefixes, each single omission, the last write
    /// torn, and the data kept without the pending directory entries.
    ///
    /// Every variant is a state the crash model allows (docs/faultfs.md, "Crash model"): data operations survive
    /// in any subset, but directory-entry changes are a journal, so the ones that survive are a prefix of the
    /// pending ones (a change never becomes durable before an earlier one). Leaving out one entry change
    /// therefore leaves out every later one too: a restore's rename never survives without the unlink of the old
    /// `-wal` before it (that state, the new database beside the old store's `-wal`, is malformed and no file
    /// system the model stands for can leave it).
    func variants(_ pending: [OpRecord]) -> [(String, [OpRecord], Int?)] {
        var result: [(String, [OpRecord], Int?)] = [("keep-none", [], nil)]
        guard !pending.isEmpty else { return result }
        let steps = Set(stride(from: 1, through: pending.count, by: max(1, pending.count / 6)).map { $0 } + [pending.count])
        for k in steps.sorted() { result.append(("prefix \(k)", Array(pending.prefix(k)), nil)) }
        for index in pending.indices.suffix(6) where pending.count > 1 {
            let omitted = pending[index]
            if Self.entryOps.contains(omitted.op) {
                let kept = pending.filter { $0.seq < omitted.seq || !Self.entryOps.contains($0.op) }
                let later = pending.count - 1 - kept.count
                result.append(("omit seq \(omitted.seq)" + (later > 0 ? " and the \(later) later entr\(later == 1 ? "y" : "ies")" : ""), kept, nil))
            } else {
                var kept = pending
                kept.remove(at: index)
                result.append(("omit seq \(omitted.seq)", kept, nil))
            }
        }
        if let last = pending.lastIndex(where: { $0.op == .write }), let length = pending[last].length, length > 512 {
            let cut = Int(length / 2) / 512 * 512
            result.append(("torn seq \(pending[last].seq) at +\(cut)", Array(pending.prefix(through: last)), cut))
        }
        if pending.contains(where: { Self.entryOps.contains($0.op) }) {
            result.append(("no pending entries", pending.filter { !Self.entryOps.contains($0.op) }, nil))
        }
        return result
    }

    /// Checks every variant at one point: builds each state the unit builds (`Unit.builds`: a state whose
    /// operations an earlier state of the shard shares is the same bytes, `CrashStateKey`, and is not built),
    /// fingerprints its recovered pages (`CrashStateFingerprint`) and examines it unless an earlier state of the
    /// enumeration recovered to the same pages and was examined (`CrashStateContent`). Which examination each
    /// state is judged by, and every count, is decided afterwards in the log's order (`CrashStateRows.summary`),
    /// so they do not depend on which unit ran first.
    func check(point: OpRecord, walk: Walk, keys: [Data], builds: [Bool], firstState: Int, reuse: Bool,
               context: inout CheckContext, content: CrashStateContent, timing: inout CrashStateRows.Timing) throws -> CrashStateRows.Point {
        var row = CrashStateRows.Point(point: point.seq, op: point.op, time: point.t.isFinite ? point.t + clockOffset : nil,
                                       pending: walk.pending.count,
                                       pendingEntries: walk.pending.filter { Self.entryOps.contains($0.op) }.count)
        let durableVersion = walk.chain.digest
        let durableView = builds.contains(true) ? walk.durable.view : [:]
        for (index, (variant, kept, tornCut)) in variants(walk.pending).enumerated() {
            var state = CrashStateRows.StateRow(state: State(point: point.seq, variant: variant, kept: kept.map(\.seq), tornCut: tornCut),
                                                key: CrashStateKey.hex(keys[index]))
            if builds[index] {
                var clock = Date()
                let database: URL
                if reuse, CrashStateOverlay.applies(to: kept), kept.allSatisfy(walk.durable.bindsByName) {
                    database = try context.overlay(durableView, version: durableVersion, kept: kept, tornCut: tornCut, enumerator: self)
                } else {
                    // The straightforward way (and the only one for kept entry operations): every file built in memory.
                    var files = walk.durable
                    for (position, op) in kept.enumerated() {
                        try apply(op, to: &files, tornCut: position == kept.count - 1 ? tornCut : nil, payloads: &context.payloads)
                    }
                    database = try context.materialize(files.view, databaseName: trackedPrefix, supportFolder: supportFolder)
                }
                timing.secondsBuilding += Self.lap(&clock)
                state.fingerprint = reuse ? CrashStateFingerprint.of(database) : nil
                timing.secondsFingerprinting += Self.lap(&clock)
                let position = firstState + index
                if let fingerprint = state.fingerprint, content.examinedBefore(position, fingerprint) {
                    // Judged by that earlier state's examination (the first of its pages in the log's order).
                } else {
                    state.examination = context.examine(database, oracle: oracle)
                    if let fingerprint = state.fingerprint { content.examined(position, fingerprint) }
                    timing.examinations += 1
                    timing.secondsExamining += Self.lap(&clock)
                }
            }
            row.states.append(state)
        }
        return row
    }

    static func write(_ payload: Data, at offset: Int, into data: inout Data) {
        let end = offset + payload.count
        if data.count < end { data.append(Data(count: end - data.count)) }
        data.replaceSubrange(data.startIndex + offset..<data.startIndex + end, with: payload)
    }

    static func resize(_ data: inout Data, to size: Int) {
        if data.count > size { data.removeSubrange(data.startIndex + size..<data.endIndex) } else { data.append(Data(count: size - data.count)) }
    }

    /// Seconds since `clock`, which moves to now.
    static func lap(_ clock: inout Date) -> Double {
        let now = Date()
        defer { clock = now }
        return now.timeIntervalSince(clock)
    }

    static func processCPUSeconds() -> Double {
        var usage = rusage()
        getrusage(RUSAGE_SELF.rawValue, &usage)
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }
}
