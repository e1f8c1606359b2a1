import Checks
import FaultFS
import Foundation
import GRDB
import Scenario
import StoreModel

/// The app's side of a `hold` rule under the turns scheduler: what it does while FaultFS keeps a program's call
/// waiting.
enum HoldServer {
    /// `action: hold` with `while_held` (turns scheduler): while a step's program runs, each time a hold rule holds
    /// one of its calls (FaultFS keeps the call waiting before it runs), the app does what `while_held` says, in
    /// order (writers' turns for `commit N`, a `store-op` checkpoint for `checkpoint MODE`), and the call then goes
    /// on. Writers take no other turn while a program runs under `turns`, so the program's Nth call meets the same
    /// commits and checkpoint in every run: a copy of the database and then of its -wal with no lock is split by a
    /// checkpoint at the same place each time (`try --deep`'s interleavings), and the repro replays it. Returns once
    /// the program has exited, with what the app's work measured (its checkpoints).
    static func serve(_ child: ChildRegistry.Child, step: Int, _ context: EventContext, grantTurn: () throws -> Bool) throws -> [RunRecord.Entry] {
        guard let faultFS = context.volume as? FaultFSVolume else { return [] }
        var entries: [RunRecord.Entry] = []
        let holdRules = context.scenario.faults.rules.enumerated().compactMap { index, rule -> (Int, FaultRule, [HoldWork])? in
            guard let work = rule.whileHeld else { return nil }
            return (index, FaultFSVolume.rule(rule), work)
        }
        while child.isRunning {
            try context.clock.checkDeadline()
            for status in (try? faultFS.mount.rules()) ?? [] where (status.holding ?? 0) > 0 {
                var plain = status.rule
                plain.id = nil
                plain.processGroups = nil
                guard let id = status.rule.id, let (index, _, work) = holdRules.first(where: { $0.1 == plain }) else { continue }
                context.note("faultfs", .fault, "rule \(index) holds \(child.name)'s call \(status.fired) (\(status.rule.ops.map(\.rawValue).joined(separator: ",")) \(status.rule.path)) while the app does: \(work.map(\.description).joined(separator: ", "))")
                // A program that holds the store's write lock (a correct backup does, to copy a consistent
                // store) keeps the app from committing until it is done: the commits would wait for a call that
                // waits for them. They are left out then, and said so; a checkpoint still runs, with a short wait.
                let locked = Self.writeLockIsTaken(context.live)
                if locked { context.note("faultfs", .note, "\(child.name) holds the store's write lock: the app cannot commit while its call is held") }
                for item in work {
                    switch item {
                    case .commit where locked:
                        continue
                    case .commit(let count):
                        var committed = 0
                        for _ in 0..<count where try grantTurn() { committed += 1 }
                        if committed == 0 { context.note("faultfs", .note, "no writer had a turn left for \(item)") }
                    case .checkpoint(let mode):
                        entries.append(try StoreOperationEvent().operate(step, Scenario.Step(action: .init(rawValue: "checkpoint"), strategy: mode.rawValue),
                                                                     context, busyTimeout: 0.25))
                    }
                }
                try faultFS.mount.release(id)
            }
            usleep(2_000)
        }
        return entries
    }

    /// Whether another connection holds the store's write lock now: `BEGIN IMMEDIATE` with no wait, rolled back
    /// at once (nothing is written). An error other than busy counts as free: the commit will say what it is.
    static func writeLockIsTaken(_ store: URL) -> Bool {
        do {
            let queue = try PlainConnection.open(store, busyTimeout: 0)
            try queue.inDatabase { db in
                try db.execute(sql: "BEGIN IMMEDIATE")
                try db.execute(sql: "ROLLBACK")
            }
            return false
        } catch let error as DatabaseError {
            return error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED
        } catch {
            return false
        }
    }
}
