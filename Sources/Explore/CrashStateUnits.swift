import Crypto
import FaultFS
import Foundation
import Runner
import Synchronization

/// The enumeration's unit of work, run through the one many-runs loop (`RunLoop.map`, so `--jobs N` and
/// `--shard K/N` are the ones every many-runs command has): a run of consecutive chosen persistence points
/// with the walk's state at the first of them. A first, cheap walk over the log (`units`) cuts the points
/// into units, copies the durable files at each unit's start (one copy per unit, not per point) and names
/// every state by its operations (`CrashStateKey`); each unit then walks its own stretch of the log from there
/// and builds, fingerprints and examines its states on a state directory of its own (`CrashStateContexts`).
///
/// The reductions stay what they were one point after another: a state whose key an earlier state of the shard
/// has is not built at all (decided before any unit runs, from the keys alone), and an examination is shared
/// between units by recovered pages through `CrashStateContent`, which lets a state skip its examination only
/// for a state earlier in the log's order. Which examination judges each state and every count is then settled
/// in the log's order (`CrashStateRows.summary`), so the summary is the same at any `--jobs` and for the merge
/// of shards.
extension CrashStateEnumerator {
    /// Where a walk over the log stands: the durable files, the key of the operations that made them, and the
    /// tracked operations not yet durable.
    struct Walk: Sendable {
        var durable: CrashStateFiles
        var chain = CrashStateKey()
        var pending: [OpRecord] = []
    }

    /// Consecutive chosen points and the walk at the first of them.
    struct Unit: Sendable {
        /// The unit's stretch of the log: from its first point's record to past its last point's.
        var start: Int
        var end: Int
        var walk: Walk
        /// Its points' barrier seqs, in order; `endOfLog` when the end of the log is its last point.
        var points: [UInt64] = []
        var endOfLog = false
        /// Per point, per variant: the state's key, and whether this unit builds the state (false when a state
        /// earlier in the shard has the same key: it is those bytes).
        var keys: [[Data]] = []
        var builds: [[Bool]] = []
        /// The position of the unit's first state among every state of the enumeration.
        var firstState: Int

        /// The unit's name in the shard plan: its points by seq (the same for every shard of one recording).
        var name: String {
            let first = points.first.map { "seq \($0)" } ?? LoggedOp.endOfLog.description
            let last = endOfLog ? LoggedOp.endOfLog.description : points.last.map { "seq \($0)" } ?? first
            return first == last ? "points \(first)" : "points \(first) to \(last)"
        }

        var pointCount: Int { points.count + (endOfLog ? 1 : 0) }
    }

    /// Points per unit: small enough that two workers share a few dozen points evenly, large enough that a
    /// unit's state directory keeps its durable files (`CrashStateOverlay`) over several points and that the
    /// copies of the durable files, one per unit, stay few.
    public static let pointsPerUnit = 8

    /// Moves `walk` past one record: a barrier makes durable what it synced; an operation on a tracked file that
    /// is not yet durable becomes pending.
    func step(_ record: OpRecord, _ walk: inout Walk, payloads: inout CrashStatePayloads) throws {
        if record.op.isBarrier {
            let synced = Set(record.synced ?? [])
            for op in walk.pending where synced.contains(op.seq) {
                try apply(op, to: &walk.durable, payloads: &payloads)
                walk.chain.append(op.seq)
            }
            walk.pending.removeAll { synced.contains($0.seq) }
            payloads.keep(walk.pending)
            return
        }
        guard record.result >= 0, record.durable == false,
              record.op.isData || Self.entryOps.contains(record.op) else { return }
        if tracked(record) { walk.pending.append(record) }
    }

    /// The key of every variant at a point where the walk stands at `walk`: the operations that made the durable
    /// files, then the kept ones, then the torn cut (`CrashStateKey`).
    func keys(_ walk: Walk) -> [Data] {
        variants(walk.pending).map { _, kept, tornCut in
            var key = walk.chain
            for op in kept { key.append(op.seq) }
            key.append(tornCut.map { UInt64($0) } ?? UInt64.max)
            return key.digest
        }
    }

    /// The end of the log as a point: a crash after the last barrier (right after a program reported success,
    /// or after the run) leaves what was durable then with any part of what was still pending, and every
    /// transaction acknowledged in the run must be there. No barrier follows to stand for it, so it is checked
    /// always, besides the chosen points.
    var endPoint: OpRecord? {
        records.last.map { OpRecord(seq: $0.seq + 1, t: .infinity, op: .endOfLog, result: 0) }
    }

    /// Cuts the chosen points (and the end of the log) into units of `pointsPerUnit`, in one walk over the log.
    func units(chosen: Set<UInt64>, pointsPerUnit: Int) throws -> [Unit] {
        var walk = Walk(durable: CrashStateFiles(start))
        var payloads = CrashStatePayloads(log: log)
        defer { payloads.close() }
        var units: [Unit] = []
        var states = 0
        func add(at index: Int, _ seq: UInt64?) {
            if units.last.map({ $0.pointCount >= pointsPerUnit }) ?? true {
                units.append(Unit(start: index, end: index, walk: walk, firstState: states))
            }
            let keys = self.keys(walk)
            units[units.count - 1].keys.append(keys)
            if let seq {
                units[units.count - 1].points.append(seq)
                units[units.count - 1].end = index + 1
            } else {
                units[units.count - 1].endOfLog = true
                units[units.count - 1].end = records.count
            }
            states += keys.count
        }
        for (index, record) in records.enumerated() {
            if record.op.isBarrier, chosen.contains(record.seq) { add(at: index, record.seq) }
            try step(record, &walk, payloads: &payloads)
        }
        if endPoint != nil { add(at: records.count, nil) }
        return units
    }

    /// Checks one unit's points: walks its stretch of the log from the walk at its start, on a state directory
    /// borrowed from `contexts`.
    func check(_ unit: Unit, reuse: Bool, contexts: CrashStateContexts, content: CrashStateContent,
               progress: CrashStateProgress) throws -> CrashStateRows.Checked {
        try contexts.borrow { context in
            var walk = unit.walk
            var timing = CrashStateRows.Timing()
            var rows: [CrashStateRows.Point] = []
            var firstState = unit.firstState
            func point(_ record: OpRecord) throws {
                let index = rows.count
                let row = try check(point: record, walk: walk, keys: unit.keys[index], builds: unit.builds[index], firstState: firstState,
                                    reuse: reuse, context: &context, content: content, timing: &timing)
                firstState += row.states.count
                rows.append(row)
                progress.checked(row.states.count)
            }
            for index in unit.start..<unit.end {
                let record = records[index]
                if rows.count < unit.points.count, record.seq == unit.points[rows.count], record.op.isBarrier {
                    try point(record)
                }
                try step(record, &walk, payloads: &context.payloads)
            }
            if unit.endOfLog, let end = endPoint { try point(end) }
            return CrashStateRows.Checked(unit: CrashStateRows.Unit(name: unit.name, points: rows), timing: timing)
        }
    }

    /// Enumerates the states of the chosen points of `loop`'s shard through `loop` and returns them with what
    /// judging them needs (`CrashStateRows`; its `summary` is the enumeration's `Summary`).
    public func enumerate(scratch: URL, maxPoints: Int, seed: UInt64, reuse: Bool = true, loop: Runner.RunLoop = Runner.RunLoop(),
                          pointsPerUnit: Int = Self.pointsPerUnit,
                          progress: (@Sendable (String) -> Void)? = nil) throws -> CrashStateRows {
        let started = Date()
        let startedCPU = Self.processCPUSeconds()
        var clock = started
        let (chosen, persistencePoints) = chosenPoints(maxPoints: maxPoints, seed: seed)
        var units = try self.units(chosen: chosen, pointsPerUnit: max(1, pointsPerUnit))
        let planning = Self.lap(&clock)
        // A state whose key an earlier state of this shard has is not built: decided here, before any unit runs.
        let mine = loop.slice(Array(units.indices))
        var seen = Set<Data>()
        for index in mine {
            units[index].builds = units[index].keys.map { $0.map { !reuse || seen.insert($0).inserted } }
        }
        let contexts = CrashStateContexts(scratch: scratch, log: log)
        defer { contexts.close() }
        let content = CrashStateContent()
        let counter = CrashStateProgress(points: mine.reduce(0) { $0 + units[$1].pointCount }, report: progress)
        let checked = try loop.map(units) { unit, _ in
            try self.check(unit, reuse: reuse, contexts: contexts, content: content, progress: counter)
        }
        var timing = checked.reduce(into: CrashStateRows.Timing()) { $0.add($1.timing) }
        timing.secondsBuilding += planning
        timing.seconds = Date().timeIntervalSince(started)
        timing.cpuSeconds = Self.processCPUSeconds() - startedCPU
        let plan = ShardPlan(kind: "crash-states", cases: units.map(\.name),
                             content: ["log \(Self.digest(of: log))", "max-points \(maxPoints)", "seed \(seed)", "reuse \(reuse)"],
                             shard: loop.shard)
        return CrashStateRows(plan: plan, reuse: reuse, persistencePoints: persistencePoints,
                              acknowledgements: CrashStateAcknowledgements(oracle), restores: restores,
                              units: checked.map(\.unit), timing: timing)
    }

    /// SHA-256 of the op log, so that shards of two recordings are never merged.
    static func digest(of log: URL) -> String {
        guard let data = try? Data(contentsOf: log) else { return "unreadable" }
        return CrashStateKey.hex(Data(SHA256.hash(data: data)))
    }
}

/// The examinations made so far, by the recovered pages' fingerprint, shared by the units running at once: for
/// each fingerprint the earliest position (in the log's order of every state) of a state examined with it. A
/// state skips its examination only when an earlier state was examined: the first state of a fingerprint is
/// always examined itself, so the summary can judge every state of it by that one, as one walk would.
final class CrashStateContent: Sendable {
    private let first = Mutex<[String: Int]>([:])

    func examinedBefore(_ position: Int, _ fingerprint: String) -> Bool {
        first.withLock { ($0[fingerprint] ?? Int.max) < position }
    }

    func examined(_ position: Int, _ fingerprint: String) {
        first.withLock { $0[fingerprint] = min($0[fingerprint] ?? Int.max, position) }
    }
}

/// The progress line of an enumeration whose units run at once: points and states checked so far, every tenth
/// point (and the last), whichever unit finished it.
final class CrashStateProgress: Sendable {
    private let counts = Mutex<(points: Int, states: Int)>((0, 0))
    let points: Int
    let report: (@Sendable (String) -> Void)?

    init(points: Int, report: (@Sendable (String) -> Void)?) {
        self.points = points
        self.report = report
    }

    func checked(_ states: Int) {
        guard let report else { return }
        let line: String? = counts.withLock { counts in
            counts.points += 1
            counts.states += states
            guard counts.points % 10 == 0 || counts.points == points else { return nil }
            return "crash states: \(counts.points)/\(points) points, \(counts.states) states"
        }
        if let line { report(line) }
    }
}
