import Checks
import Foundation
import Reporting
import Scenario
import StoreModel

/// `faults.crash` at a commit count or a second: the power fails. (A crash during a step is carried by that
/// step's event and run by its handler; a `crash` fault rule is noticed by the schedulers, `crashIfFrozen`.)
struct CrashEvent: RunEventKind {
    static let kind = "crash"
    var kinds: [String] { [Self.kind] }

    func run(_ event: DueEvent, in runner: ScenarioRunner, _ context: EventContext) throws -> Bool {
        guard let plan = event.crash else { return false }
        try runner.simulateCrash(plan, children: context.children, volume: context.volume, live: context.live,
                                 reason: "after \(event.commits) commits")
        return true
    }
}

extension ScenarioRunner {
    /// `backup-durable`: every backup on the crashed volume that had reported success must read back as it was
    /// before the crash. A backup tool that never syncs its files (or the directories they were created in)
    /// leaves a backup that a power failure right after "done" takes away.
    func checkBackupsSurvived(volume: any StoreVolume, crash: String) {
        let root = volume.directory.standardizedFileURL.path + "/"
        for backup in backups where backup.store.standardizedFileURL.path.hasPrefix(root) {
            let label = "\(backup.name) (\(scenario.schedule[backup.index].strategy))"
            guard let before = backup.state else { continue }
            do {
                // Read as its owner would open it next (SQLite rolls back a hot journal or replays the WAL first),
                // on a private copy: the check leaves the backup as the crash left it.
                let after = try StoreState.read(backup.store)
                if after.digest == before.digest, after.missingBlobs.isSubset(of: before.missingBlobs) {
                    record([Verdict("backup-durable", .held, "\(label): reads back whole after the crash")])
                } else {
                    let lost = before.notes.keys.filter { after.notes[$0] == nil }.count + before.others.keys.filter { after.others[$0] == nil }.count
                    record(withCause([Verdict("backup-durable", .violated, "\(label): changed by the crash after it reported success",
                                              evidence: ["\(label): \(lost) object(s) gone, \(after.missingBlobs.count) external data file(s) missing after \(crash)"])],
                                     store: backup.store, what: "the backup"))
                }
            } catch StoreError.missingStore {
                record(withCause([Verdict("backup-durable", .violated, "\(label): missing after the crash",
                                          evidence: ["\(label): no file at \(backup.store.path) after \(crash)"])], store: backup.store, what: "the backup"))
            } catch {
                record(withCause([Verdict("backup-durable", .violated, "\(label): unreadable after the crash", evidence: ["\(label): \(error) after \(crash)"])],
                                 store: backup.store, what: "the backup"))
            }
        }
    }

    /// Kills every process holding the store, drops what the volume did not make durable, and lets SQLite
    /// recover the store as the next launch of the app would.
    func simulateCrash(_ plan: Scenario.Crash, children: ChildRegistry, volume: any StoreVolume, live: URL, reason: String) throws {
        let at = now()
        children.killAll()
        let dropped = try volume.crash(mode: plan.mode)
        readCrashLoss(volume: volume, crashAt: at)
        let description = "crash (\(plan.mode)) \(reason): \(dropped)"
        note("faultfs", .crash, description)
        checkBackupsSurvived(volume: volume, crash: description)
        // The live store is judged after a crash unless a restore of the current round came first.
        if liveBeforeRestore == nil, operations.allSatisfy({ $0.action != "restore" || $0.start < currentRound.start }) {
            // Recovery as SQLite performs it for the next reader: the WAL is read (or ignored when torn) without
            // a checkpoint, so the files stay as the crash left them for whatever the schedule does next.
            note("runner", .recovery, "store read back from a recovered private copy (the volume keeps the files as the crash left them)")
            crash = (at, description, try? StoreState.read(live))
            record(Invariants.storeChecks(live, label: "live store after the crash"))
        } else {
            crash = (at, description, nil)
        }
    }
}
