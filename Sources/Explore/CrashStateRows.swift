import FaultFS
import Foundation
import Reporting
import Runner

/// What an enumeration (or one shard of it) checked, state by state, with what judging them needs: every
/// state's key and fingerprint, the examinations its units made, the acknowledgement times and the restores.
/// `summary` judges every state in the log's order (the same whatever order the units ran in), and `merge`
/// puts the shards of one enumeration back together so that their summary is the unsharded one.
/// Written beside `crash-states.json` as `crash-states-rows.json` (`file`), which is what
/// `lifeboat report merge` reads.
public struct CrashStateRows: Sendable, Codable {
    public static let file = "crash-states-rows.json"
    public var schema = "lifeboat.crash-state-rows/1"
    /// The whole's units by name (`CrashStateEnumerator.Unit.name`), its recording, settings and shard.
    public var plan: ShardPlan
    public var reuse: Bool
    public var persistencePoints: Int
    var acknowledgements: CrashStateAcknowledgements
    var restores: [CrashStateRestore]
    /// This folder's units, in the plan's order.
    public var units: [Unit]
    public var timing: Timing
    /// The report folder of the recorded run, whose report counts the states (`CrashStateRun.reportStates`).
    public var run: String?

    public struct Unit: Sendable, Codable {
        public var name: String
        public var points: [Point]
    }

    /// One checked point and its states.
    public struct Point: Sendable, Codable {
        public var point: UInt64
        public var op: LoggedOp
        /// The barrier's time on the history's clock; nil for the end of the log (after every acknowledgement).
        public var time: Double?
        public var pending: Int
        public var pendingEntries: Int
        public var states: [StateRow] = []
    }

    /// One state: which, its key (`CrashStateKey`), its recovered pages' fingerprint (when its unit built it
    /// and SQLite could open it read-only) and the examination its unit made of it, if it made one.
    public struct StateRow: Sendable, Codable {
        public var state: CrashStateEnumerator.State
        public var key: String
        public var fingerprint: String?
        var examination: CrashStateExamination?
    }

    /// Where the time went. At `--jobs N` building, fingerprinting and examining are summed over the units that
    /// ran at once (they can add up to more than `seconds`); a merge sums its shards' figures.
    public struct Timing: Sendable, Codable {
        public var seconds = 0.0
        public var cpuSeconds = 0.0
        public var secondsBuilding = 0.0
        public var secondsFingerprinting = 0.0
        public var secondsExamining = 0.0
        /// Examinations made: at `--jobs N` a few more than the summary's `statesExamined` when two units met
        /// the same pages at once (each examined them; the summary counts the first in the log's order).
        public var examinations = 0

        mutating func add(_ other: Timing) {
            seconds += other.seconds
            cpuSeconds += other.cpuSeconds
            secondsBuilding += other.secondsBuilding
            secondsFingerprinting += other.secondsFingerprinting
            secondsExamining += other.secondsExamining
            examinations += other.examinations
        }
    }

    /// What one unit gives the loop.
    struct Checked: Sendable {
        var unit: Unit
        var timing: Timing
    }

    public struct RowsError: Error, CustomStringConvertible {
        public var message: String
        public var description: String { message }
    }

    /// Judges every state in the log's order, as one walk over the log would: a state with the key of an earlier
    /// one takes its examination (same operations), else one with the fingerprint of an earlier examined one
    /// takes that (same pages), else it is examined (its unit made the examination; the first state of a key
    /// or a fingerprint is always examined by its own unit). The point's own acknowledgements and the restores
    /// then give every state its problems. `verdict` sees every state with its problems, in that order.
    public func summary(verdict: ((CrashStateEnumerator.State, [String]) -> Void)? = nil) throws -> CrashStateEnumerator.Summary {
        var summary = CrashStateEnumerator.Summary()
        summary.persistencePoints = persistencePoints
        var byKey: [String: CrashStateExamination] = [:]
        var byContent: [String: CrashStateExamination] = [:]
        for point in units.flatMap(\.points) {
            summary.pointsChecked += 1
            var count = CrashStateEnumerator.PointCount(point: point.point, op: point.op, pending: point.pending,
                                                        pendingEntries: point.pendingEntries)
            for row in point.states {
                let examination: CrashStateExamination
                if reuse, let known = byKey[row.key] {
                    examination = known
                    summary.statesReused += 1
                    summary.statesSameOperations += 1
                    count.sameOperations += 1
                } else if reuse, let fingerprint = row.fingerprint, let known = byContent[fingerprint] {
                    examination = known
                    summary.statesReused += 1
                    summary.statesSameContent += 1
                    count.sameContent += 1
                } else {
                    guard let own = row.examination else {
                        throw RowsError(message: "barrier seq \(row.state.point), \(row.state.variant): no examination of its own, and none of the same operations or pages before it")
                    }
                    examination = own
                    if reuse, let fingerprint = row.fingerprint { byContent[fingerprint] = own }
                    summary.statesExamined += 1
                    count.examined += 1
                }
                if reuse { byKey[row.key] = examination }
                let problems = examination.problems(at: point.time ?? .infinity, acknowledgements: acknowledgements, restores: restores)
                summary.statesChecked += 1
                count.states += 1
                summary.variants[String(row.state.variant.split(separator: " ").first ?? ""), default: 0] += 1
                if let short = examination.shortMain {
                    summary.shortMain.states += 1
                    if short.openError == nil, short.tablesAfterOpen == 0 { summary.shortMain.openedEmpty += 1 }
                    if !short.walKeptByOpen { summary.shortMain.walDeleted += 1 }
                    if !problems.isEmpty { summary.shortMain.failed += 1 }
                    if summary.shortMain.first == nil {
                        summary.shortMain.first = "\(point.op == .endOfLog ? "the end of the log" : "barrier seq \(point.point)"), \(row.state.variant): \(short.description)"
                    }
                }
                verdict?(row.state, problems)
                if !problems.isEmpty {
                    count.failed += 1
                    summary.statesFailed += 1
                    if summary.failures.count < 20 { summary.failures.append(.init(state: row.state, problems: problems)) }
                }
            }
            summary.points.append(count)
        }
        summary.seconds = timing.seconds
        summary.cpuSeconds = timing.cpuSeconds
        summary.secondsBuilding = timing.secondsBuilding
        summary.secondsFingerprinting = timing.secondsFingerprinting
        summary.secondsExamining = timing.secondsExamining
        summary.statesPerSecond = Double(summary.statesChecked) / max(summary.seconds, 0.001)
        return summary
    }

    /// The shards of one enumeration as one (`ShardPlan.check`: the same recording and settings, every unit
    /// exactly once), its units in the plan's order and its times the sums of theirs.
    public static func merge(_ parts: [(label: String, rows: CrashStateRows)]) throws -> CrashStateRows {
        let whole = try ShardPlan.check(parts.map { ShardPlan.Part(label: $0.label, plan: $0.rows.plan, keys: $0.rows.units.map(\.name)) })
        var byName: [String: Unit] = [:]
        for part in parts { for unit in part.rows.units { byName[unit.name] = unit } }
        var merged = parts[0].rows
        merged.plan = whole
        merged.units = whole.cases.compactMap { byName[$0] }
        merged.timing = parts.reduce(into: Timing()) { $0.add($1.rows.timing) }
        merged.run = parts.compactMap(\.rows.run).first
        return merged
    }

    /// Writes `crash-states.json` (the summary) and `crash-states-rows.json` (every state) into `folder`.
    public func write(_ summary: CrashStateEnumerator.Summary, to folder: URL) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(summary).write(to: folder.appendingPathComponent(Self.summaryFile))
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(self).write(to: folder.appendingPathComponent(Self.file))
    }

    public static let summaryFile = "crash-states.json"

    /// `lifeboat report merge` of `crash-states --shard K/N` folders: `out` gets the crash-states.json and
    /// crash-states-rows.json of one unsharded enumeration, and the recorded run's report (when its folder is
    /// still where the shards found it) counts the states, as an unsharded `crash-states` leaves it.
    public static func merge(_ folders: [URL], into out: URL) throws -> (rows: CrashStateRows, summary: CrashStateEnumerator.Summary, run: RunResult?) {
        let parts = try folders.map { (label: $0.path, rows: try load($0)) }
        let merged = try merge(parts)
        let summary = try merged.summary()
        try ShardPlan.prepare(out, parts: folders)
        try merged.write(summary, to: out)
        var run: RunResult?
        if let folder = merged.run.map({ URL(fileURLWithPath: $0) }),
           FileManager.default.fileExists(atPath: folder.appendingPathComponent("report.json").path) {
            run = try CrashStateRun.reportStates(summary, runFolder: folder)
        }
        return (merged, summary, run)
    }

    public static func load(_ folder: URL) throws -> CrashStateRows {
        let url = folder.appendingPathComponent(file)
        guard let data = try? Data(contentsOf: url) else { throw RowsError(message: "\(folder.path): no \(file)") }
        do { return try JSONDecoder().decode(CrashStateRows.self, from: data) } catch {
            throw RowsError(message: "\(url.path) cannot be read: \(error)")
        }
    }
}
