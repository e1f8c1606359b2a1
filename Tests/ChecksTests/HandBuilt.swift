@testable import Checks
import Foundation
import LifeboatTestSupport
@testable import StoreCheck
import StoreModel
import Workload

/// The one builder of run records for the tests of the judge and its invariants (one `…InvariantTests` file per
/// invariant or small family): a plan, one writer's history, store states, steps and measurements, put together by
/// hand so each test states what a run observed and reads the verdict `Judge.judge` gives, in milliseconds. Where
/// an invariant judges what the checker measured of a store file (a `CheckReport`, a comparison, an open), the
/// tests make a tiny real store in a `Scratch` and measure it with `Measure`, as a run does; nothing mocks SQLite.
enum HandBuilt {
    static let ids = (0..<6).map { _ in UUID() }

    static func plan(invariants: [String] = [], expect: String = "pass", synchronous: String = "full", backupsOnVolume: Bool = true,
                     metricBounds: [MetricsCheck.Bound] = []) -> JudgingPlan {
        JudgingPlan(scenario: "hand-built", scenarioFile: "hand-built.yaml", description: "", seed: 1, invariants: invariants,
                    expectation: expect, synchronous: synchronous, backupsOnVolume: backupsOnVolume, metricBounds: metricBounds)
    }

    /// A record of writer 1's `transactions(count)`, judged on every invariant (the plan's defaults).
    static func record(transactions count: Int = 3, plan: JudgingPlan = HandBuilt.plan()) -> RunRecord {
        var record = RunRecord(plan: plan)
        record.transactions = transactions(count)
        return record
    }

    /// Writer 1 inserts note i at i + 0.9, acknowledged at i + 1 (i = 0, 1, 2, ...).
    static func transactions(_ count: Int = 3) -> [Transaction] {
        (0..<count).map { i in
            Transaction(writer: 1, seq: i + 1, ops: [HistoryOp(op: "insert", entity: "Note", id: ids[i], hash: "h\(i)")],
                        intentAt: Double(i) + 0.9, ackAt: Double(i) + 1, outcome: .committed, error: nil)
        }
    }

    /// A store holding the first `count` notes of `transactions()`.
    static func state(_ count: Int) -> StoreState {
        var state = StoreState()
        for i in 0..<count { state.notes[ids[i]] = "h\(i)" }
        return state
    }

    /// A store holding exactly `notes` (identity -> state hash).
    static func state(notes: [UUID: String]) -> StoreState {
        var state = StoreState()
        state.notes = notes
        return state
    }

    /// A store measurement with a checker report holding `findings` (none: a clean store).
    static func clean(_ label: String, path: String = "/s/Library.sqlite", state: StoreState? = nil, findings: [Finding] = []) -> StoreMeasurement {
        StoreMeasurement(label: label, path: path, state: state.map { Measured($0) }, checks: Measured(report(path, findings)))
    }

    /// A checker report (or a comparison's, `against`) holding `findings`.
    static func report(_ path: String = "/s/Library.sqlite", against: String? = nil, _ findings: [Finding] = []) -> CheckReport {
        var report = CheckReport(store: path, against: against)
        for finding in findings { report.add(finding) }
        return report
    }

    /// A backup step that reported success, with the store it made.
    static func backup(_ name: String, start: Double, end: Double, state: StoreState, findings: [Finding] = [], round: Int = 0) -> StepRecord {
        backup(name, start: start, end: end, store: clean("\(name) (command)", path: "/b/\(name)/Library.sqlite", state: state, findings: findings), round: round)
    }

    static func backup(_ name: String, start: Double, end: Double, store: StoreMeasurement, round: Int = 0) -> StepRecord {
        var step = StepRecord(name: name, index: 0, action: .backup, strategy: "command", start: start, end: end, round: round,
                              succeeded: true, interrupted: false, error: nil)
        step.backup = BackupMeasurement(store: store, onVolume: true)
        return step
    }

    /// A step that reported failure (`error`: what the program printed), or that a crash cut short.
    static func failed(_ name: String, _ action: StepRecord.Action, start: Double, end: Double, error: String?, interrupted: Bool = false) -> StepRecord {
        StepRecord(name: name, index: 1, action: action, strategy: "command", start: start, end: end, round: 0,
                   succeeded: false, interrupted: interrupted, error: error)
    }

    /// A restore of `source` that reported success (unless `interrupted`), leaving `live`.
    static func restore(_ name: String = "restore-1", source: String = "backup-0", start: Double = 4, end: Double = 4.2,
                        live: StoreMeasurement? = nil, interrupted: Bool = false) -> StepRecord {
        var step = StepRecord(name: name, index: 1, action: .restore, strategy: "command", start: start, end: end, round: 0,
                              succeeded: !interrupted, interrupted: interrupted, error: nil)
        step.restore = RestoreMeasurement(source: source, live: live ?? clean("live store after \(name) (command)"))
        return step
    }

    /// A crash at `at`, with the live store as the next launch reads it.
    static func crash(at: Double = 3.5, live: StoreMeasurement?, cause: String? = nil) -> CrashRecord {
        CrashRecord(at: at, description: "crash (keep-none) at \(at) s", live: live,
                    liveLoss: cause.map { LossRecord(operations: [], cause: $0) })
    }

    /// The verdict the judge gives `name` on `record`.
    static func verdict(_ record: RunRecord, _ name: String) -> Verdict {
        verdict(Judge.judge(record), name)
    }

    static func verdict(_ judgement: Judge.Judgement, _ name: String) -> Verdict {
        judgement.verdicts.first { $0.invariant == name } ?? Verdict(name, .notApplicable, "absent")
    }

    /// A real store as a run measures it: its checker report, every finding kept, and its objects.
    static func measured(_ url: URL, label: String) -> StoreMeasurement {
        Measure.store(url, label: label, state: true)
    }

    /// A tiny generated store at `relative` in `scratch` (no attachments unless `blobs`).
    static func tinyStore(_ scratch: Scratch, _ relative: String, objects: Int = 12, blobs: Bool = false) throws -> URL {
        try scratch.store(relative, objects: objects, blobFraction: blobs ? 0.5 : 0, blobSize: 110_000)
    }

    /// A copy of a store's files (database, -wal, support folder) at `relative`, as a file-copy backup makes one.
    static func copy(_ url: URL, to relative: String, in scratch: Scratch) throws -> URL {
        let target = scratch.path(relative)
        try FileManager.default.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: url.path + suffix) {
            try FileManager.default.copyItem(atPath: url.path + suffix, toPath: target.path + suffix)
        }
        let support = StoreFiles(url).supportFolder
        if FileManager.default.fileExists(atPath: support.path) { try FileManager.default.copyItem(at: support, to: StoreFiles(target).supportFolder) }
        return target
    }

    /// Deletes `count` notes of the store at `url` in one save (a restore or a crash that lost them); returns them.
    @discardableResult
    static func deleteNotes(_ url: URL, count: Int = 1) throws -> [UUID] {
        let victims = Array(try StoreState.read(url).notes.keys.sorted { $0.uuidString < $1.uuidString }.prefix(count))
        let store = try PersistentStore(at: url, model: .library)
        try store.save { context in
            for id in victims { try context.delete(entity: "Note", id: id) }
        }
        try store.close()
        return victims
    }
}
