import Checks
import ChildProcesses
import Foundation
import Reporting
import Scenario
import StoreModel
import Strategies
import Workload

/// `relocate: STRATEGY` and `sync: live` (docs/cloudkit.md): each a child process, `lifeboat relocate` or
/// `lifeboat mirror`, against the run's zone.
struct CloudStepEvent: RunEventKind {
    var kinds: [String] { ["relocate", "sync"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let index = event.index, let step = event.step else { return EventOutcome() }
        return EventOutcome(entries: try runCloudStep(index, step, context))
    }

    /// Runs a `relocate` or `sync` step in a child process (`lifeboat relocate`, `lifeboat mirror`) and records
    /// its verdicts: `relocation-completes` for a move (with the mirror's retry log when it never finished),
    /// `no-duplicates` locally and in the zone after a sync.
    func runCloudStep(_ index: Int, _ step: Scenario.Step, _ context: EventContext) throws -> [RunRecord.Entry] {
        let (scratch, children, volume, scenario, now, note) = (context.scratch, context.children, context.volume, context.scenario, context.now, context.note)
        let name = "\(step.action.rawValue)-\(index)"
        let current = context.live
        let isMove = step.action.rawValue == "relocate"
        let move = step.relocation ?? Scenario.Relocation()
        // A move of a store without CloudKit needs no zone; a sync always does.
        let zone = !isMove || scenario.store.cloudkit || scenario.cloud != nil || move.cloudKitDuringMove
            ? try context.cloud.zone(scratch: scratch, scenario: scenario, note: note) : nil
        let cloud = scenario.cloud ?? Scenario.CloudSpec()
        var arguments: [String]
        var target = current
        var relocation: (kept: [ChildRegistry.Child], writersRunning: Bool) = ([], false)
        if isMove {
            target = volume.directory.appendingPathComponent(move.to)
            var options = StrategyOptions()
            options.cloud = zone?.directory.path
            options.cloudKitContainerName = cloud.container
            options.mirrorSetupDeadline = cloud.setupDeadline
            options.cloudKitDuringMove = move.cloudKitDuringMove
            if let v = step.migrateExisting.flatMap(MigrateOptions.ExistingDestination.init(rawValue:)) { options.migrateExistingDestination = v }
            let config = scratch.appendingPathComponent("\(name).json")
            try JSONEncoder().encode(StrategyRun(action: .relocate, strategy: step.strategy, source: current.path, destination: target.path,
                                                 options: options)).write(to: config)
            arguments = ["step", "--config", config.path]
            relocation = beginRelocation(context)
        } else if let zone {
            arguments = try MirrorChild.arguments(name, store: current, zone: zone, seed: scenario.seed &* 31 &+ UInt64(index), context)
        } else { return [] }
        let start = now()
        note(name, .start, isMove ? "\(step.strategy) to \(move.to)" : "mirror \(current.lastPathComponent)")
        let child = try children.start(name, executable: context.executable, arguments: arguments,
                                       environment: context.toolEnvironment(live: current))
        let status = try children.wait(child, timeout: max(1, scenario.timeLimit - now()))
        let end = now()
        let output = child.output
        let lastLine = output.split(separator: "\n").last.map(String.init) ?? ""
        let succeeded = status == 0
        var details: [String: String] = [:]
        if let data = lastLine.data(using: .utf8), let object = try? JSONSerialization.jsonObject(with: data) as? [String: Any] {
            if let inner = object["details"] as? [String: String] { details = inner } else { for (key, value) in object { details[key] = "\(value)" } }
        }
        let label = "\(name) (\(step.strategy))"
        let retryLog = ((zone.flatMap { try? String(contentsOf: $0.logFile, encoding: .utf8) }) ?? "").split(separator: "\n").suffix(4).map { "\(label): mirror log: \($0)" }
        if isMove, !succeeded {
            // `relocation-completes`' evidence: what the mover said last, and the mirror's retries.
            details["failure"] = (["\(label): \(lastLine.trimmingCharacters(in: .whitespaces).prefix(400))"] + retryLog).joined(separator: "\n")
        }
        var entries: [RunRecord.Entry] = [.operation(OperationSummary(name: name, action: step.action.rawValue, strategy: step.strategy, start: start, end: end,
                                                                      succeeded: succeeded, store: target.path, details: details,
                                                                      error: succeeded ? nil : OutputExcerpt.headAndTail(output, limit: 1600)))]
        note(name, .end, succeeded ? "done" : "failed: \(lastLine)")
        if isMove {
            if succeeded {
                try endRelocation(index: index, label: label, from: current, to: target, start: start, kept: relocation.kept,
                                  writersRunning: relocation.writersRunning, context)
            }
        } else {
            guard succeeded else {
                // Signed out (`account: sign-out`), Core Data's mirror retries in the background: no error for the app.
                if (try? zone?.readState().account) == .unavailable {
                    note(name, .note, "signed out of iCloud: nothing synced")
                    return entries
                }
                return entries + [.error("\(label): the sync did not complete: \(lastLine.prefix(400))")]
            }
            // The store and the zone are read now, as this sync left them: a zone read later holds what other
            // devices exported since, and the store what the writers committed since.
            let deleted = Self.deletedBeforeRestoredBackup(context.recorded(), history: scratch.appendingPathComponent("history"))
            let records = zone.map { zone in Measured.of { try zone.records() } }
            entries.append(.sync(SyncMeasurement(label: label, name: name, store: Measure.store(current, label: "store after \(label)", state: false),
                                                 zone: records, consistency: records.map { Measure.cloud(current, records: $0, deleted: deleted) })))
        }
        return entries
    }

    /// For `cloud-consistent`: the objects whose delete was acknowledged before the restored backup began (and
    /// never re-inserted): absent from that backup, they must not come back through a sync. Empty before a restore.
    static func deletedBeforeRestoredBackup(_ record: RunRecord, history: URL) -> Set<UUID> {
        guard let restore = record.operations.first(where: { $0.action == "restore" }),
              let restoreStart = record.steps.last(where: { $0.backup != nil && $0.end <= restore.start })?.start else { return [] }
        let transactions = HistoryReader.transactions(in: history).filter { $0.outcome == .committed }
        var deleted = Set<UUID>()
        var inserted: [UUID: Double] = [:]
        for tx in transactions { for op in tx.ops where op.op == "insert" { inserted[op.id] = max(inserted[op.id] ?? 0, tx.ackAt ?? 0) } }
        for tx in transactions where (tx.ackAt ?? .infinity) < restoreStart {
            for op in tx.ops where op.op == "delete" && (inserted[op.id] ?? 0) <= (tx.ackAt ?? 0) { deleted.insert(op.id) }
        }
        return deleted
    }
}
