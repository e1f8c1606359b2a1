import Checks
import ChildProcesses
import Foundation
import Reporting
import Scenario
import SeededRandomness
import Workload

/// `checkpoint: MODE`, `vacuum: true` and `bulk-delete: N | P%`: one `lifeboat store-op` child with a connection of
/// its own to the live store, while the writers write. Its result goes in the timeline and the operations; a bulk
/// delete records its transaction in `history/bulk-delete-<index>.jsonl` as writer 1000 + index (in the round of
/// writers it runs in: `WriterRound.bulkDelete`), so every invariant holds the store to it (the objects are gone
/// from the acknowledgement on).
struct StoreOperationEvent: RunEventKind {
    var kinds: [String] { ["checkpoint", "vacuum", "bulk-delete"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let index = event.index, let step = event.step else { return EventOutcome() }
        return EventOutcome(entries: [try operate(index, step, context)])
    }

    /// Runs one store operation in a `lifeboat store-op` child and returns what it reported (also the checkpoint
    /// a `hold` rule's `while_held` asks for, with a short busy timeout).
    func operate(_ index: Int, _ step: Scenario.Step, _ context: EventContext, busyTimeout: Double? = nil) throws -> RunRecord.Entry {
        let (scenario, now, note) = (context.scenario, context.now, context.note)
        let kind = step.action.rawValue
        let round = context.recorded().operations.filter { $0.name.hasPrefix("\(kind)-\(index)") }.count
        let name = "\(kind)-\(index)" + (round > 0 ? ".\(round + 1)" : "")
        var config = StoreOperation.Configuration(store: context.live.path, operation: kind, epoch: context.epoch)
        config.synchronous = scenario.writers.synchronous
        config.journalMode = scenario.store.journalMode
        config.busyTimeout = busyTimeout
        var detail = kind
        if kind == "checkpoint" {
            config.mode = step.strategy.uppercased()
            detail = "checkpoint(\(step.strategy))"
        } else if kind == "bulk-delete" {
            let history = context.scratch.appendingPathComponent("history")
            // The notes of the store the round began from (the generated store, or the restored one) that no bulk
            // delete of this round has taken.
            let round = context.writers.current
            let deleted = Set(HistoryReader.transactions(in: history)
                .filter { WriterRound.isBulkDelete($0.writer) && WriterRound.round(of: $0.writer) == round.number && $0.outcome != .failed }
                .flatMap(\.ops).map(\.id))
            var candidates = round.baseNotes.filter { !deleted.contains($0) }
            var random = SeededRandom(seed: scenario.seed &* 31 &+ UInt64(index) &+ 0x62_756C_6B)
            for position in candidates.indices.reversed() where position > 0 {
                candidates.swapAt(position, Int(random.next() % UInt64(position + 1)))
            }
            let amount = Scenario.Step.bulkDeleteAmount(step.strategy) ?? (0, nil)
            config.count = amount.count ?? Int((Double(round.baseNotes.count) * (amount.share ?? 0)).rounded())
            config.candidates = candidates
            config.index = WriterRound.bulkDelete(index, round: round.number)
            config.history = history.appendingPathComponent("bulk-delete-\(index)" + (round.number > 0 ? "-round-\(round.number)" : "") + ".jsonl").path
            detail = "bulk-delete of \(config.count) initial note(s), recorded as writer \(config.index)"
        }
        let configURL = context.scratch.appendingPathComponent("\(name).json")
        try JSONEncoder().encode(config).write(to: configURL)
        let start = now()
        note(name, .start, detail)
        let child = try context.children.start(name, executable: context.executable, arguments: ["store-op", "--config", configURL.path])
        let status = try context.children.wait(child, timeout: max(1, scenario.timeLimit - now()))
        let output = child.output
        let result = output.split(separator: "\n").last.flatMap { try? JSONDecoder().decode(StoreOperation.Result.self, from: Data($0.utf8)) }
        let succeeded = status == 0 && result != nil
        let details = result?.details ?? [:]
        let operation = OperationSummary(name: name, action: kind, strategy: step.strategy, start: start, end: now(), succeeded: succeeded,
                                         store: context.live.path, details: details,
                                         error: succeeded ? nil : OutputExcerpt.headAndTail(output, limit: 1200))
        let said = details.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
        note(name, .end, succeeded ? "done: \(said)" : "failed: \(OutputExcerpt.headAndTail(output, limit: 400))")
        return .operation(operation)
    }
}
