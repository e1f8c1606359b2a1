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

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        let runner = context.engine
        guard let plan = event.crash else { return EventOutcome() }
        try runner.simulateCrash(plan, children: context.children, volume: context.volume, live: context.live,
                                 reason: "after \(event.commits) commits")
        return EventOutcome(crashed: true)
    }
}

extension ScenarioRunner {
    /// For `backup-durable`: every backup on the crashed volume that had reported success, read back as the crash
    /// left it (as its owner would open it next, on a private copy), with what the crash dropped under it.
    func measureBackupsAfterCrash(volume: any StoreVolume, crash: String) {
        let root = volume.directory.standardizedFileURL.path + "/"
        for position in record.steps.indices {
            guard let backup = record.steps[position].backup, backup.store.state?.value != nil,
                  URL(fileURLWithPath: backup.store.path).standardizedFileURL.path.hasPrefix(root) else { continue }
            let url = URL(fileURLWithPath: backup.store.path)
            var after = BackupAfterCrash(crash: crash, state: nil, missing: false, error: nil, loss: nil)
            do {
                after.state = try StoreState.read(url)
            } catch StoreError.missingStore {
                after.missing = true
            } catch {
                after.error = "\(error)"
            }
            after.loss = lossRecord(store: url, what: "the backup")
            record.steps[position].backup?.afterCrash = after
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
        measureBackupsAfterCrash(volume: volume, crash: description)
        // The live store is judged after a crash unless a restore of the current round came first.
        if liveBeforeRestore == nil, record.operations.allSatisfy({ $0.action != "restore" || $0.start < currentRound.start }) {
            // Recovery as SQLite performs it for the next reader: the WAL is read (or ignored when torn) without
            // a checkpoint, so the files stay as the crash left them for whatever the schedule does next.
            note("runner", .recovery, "store read back from a recovered private copy (the volume keeps the files as the crash left them)")
            let measured = Measure.store(live, label: "live store after the crash", state: true)
            record.crash = CrashRecord(at: at, description: description, live: measured, liveLoss: lossRecord(store: live, what: "the live store"))
            record.crash?.missingExternalFiles = missingExternalFileFates(measured.checks.value, store: live)
            // The same store with the attachments the app's own lost record.operations touched set aside: what the
            // program's invariants judge.
            let appsFiles = (record.crash?.liveLoss?.appsExternalFiles ?? [])
                .union(record.crash?.missingExternalFiles.filter { $0.value.kind == .app }.keys ?? [:].keys)
            if !appsFiles.isEmpty {
                record.crash?.liveWithoutAppsLosses = Measured.of { try StoreState.read(live, treatingAsMissing: appsFiles) }
            }
        } else {
            record.crash = CrashRecord(at: at, description: description, live: nil, liveLoss: nil)
        }
    }
}
