import Checks
import ChildProcesses
import Foundation
import Reporting
import Scenario
import Workload

/// `cleanup: old-store`: seed 002's cleanup of the store the last `relocate` moved away from (destroy, then remove
/// the old `.sqlite` and `<container>.sqlite-wal`/`-shm`/`ckAssetFiles`), in a `lifeboat store-op` child. With
/// `unless_open: true` it first applies the seed's condition ("if you can ensure no other process or a different
/// thread is accessing them"): while a process of the run holds a file of the old store open, it does nothing.
struct CleanupEvent: RunEventKind {
    var kinds: [String] { ["cleanup"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let index = event.index, let step = event.step else { return EventOutcome() }
        return EventOutcome(entries: try runCleanup(index, step, context))
    }

    func runCleanup(_ index: Int, _ step: Scenario.Step, _ context: EventContext) throws -> [RunRecord.Entry] {
        let (scenario, now, note) = (context.scenario, context.now, context.note)
        let name = "cleanup-\(index)"
        guard let old = context.location.moves.last?.from else {
            note(name, .note, "no relocate has finished: there is no old store to clean up")
            return []
        }
        let keys = step.cleanup ?? Scenario.Cleanup()
        let container = keys.container ?? old.deletingPathExtension().lastPathComponent
        let start = now()
        if keys.onlyWhenNoneHoldsIt {
            let holders = Self.processesHolding([old.path, old.path + "-wal", old.path + "-shm"], children: context.children)
            if !holders.isEmpty {
                let said = "skipped: \(holders.joined(separator: "; ")) (the seed's condition: no other process may be accessing them)"
                note(name, .end, said)
                return [.operation(OperationSummary(name: name, action: "cleanup", strategy: step.strategy, start: start, end: now(), succeeded: true,
                                                    store: old.path, details: ["skipped": "true", "holders": holders.joined(separator: "; ")], error: nil))]
            }
        }
        var config = StoreOperation.Configuration(store: old.path, operation: "cleanup", epoch: context.epoch)
        config.containerName = container
        let configURL = context.scratch.appendingPathComponent("\(name).json")
        try JSONEncoder().encode(config).write(to: configURL)
        note(name, .start, "destroy \(old.lastPathComponent), then remove it and \(container).sqlite-wal, -shm, ckAssetFiles")
        let child = try context.children.start(name, executable: context.executable, arguments: ["store-op", "--config", configURL.path])
        let status = try context.children.wait(child, timeout: max(1, scenario.timeLimit - now()))
        let output = child.output
        let result = output.split(separator: "\n").last.flatMap { try? JSONDecoder().decode(StoreOperation.Result.self, from: Data($0.utf8)) }
        let succeeded = status == 0 && result != nil
        let operation = OperationSummary(name: name, action: "cleanup", strategy: step.strategy, start: start, end: now(), succeeded: succeeded,
                                         store: old.path, details: result?.details ?? [:],
                                         error: succeeded ? nil : OutputExcerpt.headAndTail(output, limit: 1200))
        let leftovers = result?.details["leftovers"].flatMap { $0.isEmpty ? nil : $0 }
        note(name, .end, succeeded ? "done" + (leftovers.map { "; left beside the old store: \($0)" } ?? "")
                                   : "failed: \(OutputExcerpt.headAndTail(output, limit: 400))")
        return [.operation(operation)]
    }

    /// The running children of the run holding one of `paths` open, each with the files it holds (from
    /// /proc/<pid>/fd), for the seed's condition.
    static func processesHolding(_ paths: [String], children: ChildRegistry) -> [String] {
        children.running { _ in true }.compactMap { child in
            let directory = "/proc/\(child.pid)/fd"
            let held = Set(((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).compactMap { entry -> String? in
                guard let target = try? FileManager.default.destinationOfSymbolicLink(atPath: directory + "/" + entry) else { return nil }
                let bare = target.hasSuffix(" (deleted)") ? String(target.dropLast(" (deleted)".count)) : target
                return paths.contains(bare) ? URL(fileURLWithPath: bare).lastPathComponent : nil
            })
            return held.isEmpty ? nil : "\(child.name) holds \(held.sorted().joined(separator: ", ")) open"
        }
    }
}
