import Checks
import FaultFS
import FaultVocabulary
import Foundation
import Scenario
import StoreModel

/// The run's power failures: a planned crash (`faults.crash`, at a commit count, a second or during a step) or
/// a `crash` fault rule that froze the volume. A crash kills every process holding the store, drops what the
/// volume had not made durable (FaultFS's crash model, docs/faultfs.md), and measures at that moment what the
/// crash left: the live store as recovery reads it, every backup that had reported success, and what the op log
/// says the crash took (the causes of durability findings, `RunCrashes+Causes`).
final class RunCrashes {
    private let scenario: Scenario
    private let journal: RunJournal
    private let rounds: WriterRounds
    /// The name of the run's child behind a pid (any of its processes), for naming who lost what.
    let childName: ([Int32]) -> String?
    /// What the last crash on a FaultFS volume dropped, from its op log, and the volume's root.
    private(set) var loss: (loss: CrashLoss, root: URL, log: URL)?
    /// Whether a `crash` fault rule crashed the volume.
    private(set) var crashedByRule = false

    init(scenario: Scenario, journal: RunJournal, rounds: WriterRounds, childName: @escaping ([Int32]) -> String?) {
        self.scenario = scenario
        self.journal = journal
        self.rounds = rounds
        self.childName = childName
    }

    /// The crash mode of the scenario's `crash` fault rules (`action: crash` or `crash MODE`), or nil without one.
    var ruleMode: CrashMode? {
        for rule in scenario.faults.rules {
            if case .crash(let mode) = rule.action { return mode }
        }
        return nil
    }

    /// When a `crash` rule fired, FaultFS froze the volume right after that call (every later call fails with
    /// EIO, so nothing after it reaches the disk); this is where the engine notices and crashes: it kills the
    /// store's processes and drops what was not durable, with the rule's mode. Returns what the crash measured,
    /// or nil when the volume is not frozen. `pending`: what the event running now has measured so far.
    func crashIfFrozen(children: ChildRegistry, volume: any StoreVolume, live: URL, pending: [RunRecord.Entry] = []) throws -> [RunRecord.Entry]? {
        guard !crashedByRule, let mode = ruleMode, let faultFS = volume as? FaultFSVolume, try faultFS.isFrozen() else { return nil }
        crashedByRule = true
        let hit = faultFS.faultHits(name: childName).values.first
        let frozen = RunRecord.Entry.frozen(at: hit?.at.map { $0 - journal.clock.epoch } ?? journal.clock.now())
        var plan = Scenario.Crash()
        plan.mode = mode
        return [frozen] + (try simulate(plan, children: children, volume: volume, live: live,
                                        reason: "right after the call a crash rule fired on" + (hit.map { " (\($0.summary))" } ?? ""),
                                        pending: pending + [frozen]))
    }

    /// Kills every process holding the store, drops what the volume did not make durable, and lets SQLite
    /// recover the store as the next launch of the app would; returns what it measured then. `pending`: what
    /// the event running now has measured so far (a backup step whose backup the crash may take).
    func simulate(_ plan: Scenario.Crash, children: ChildRegistry, volume: any StoreVolume, live: URL, reason: String,
                  pending: [RunRecord.Entry] = []) throws -> [RunRecord.Entry] {
        let at = journal.clock.now()
        children.killAll()
        let dropped = try volume.crash(mode: plan.mode)
        readLoss(volume: volume, crashAt: at)
        let description = "crash (\(plan.mode)) \(reason): \(dropped)"
        journal.note("faultfs", .crash, description)
        let record = journal.record.adding(pending)
        var entries = backupsAfterCrash(record, volume: volume, crash: description)
        // The live store is judged after a crash unless a restore of the current round came first.
        if rounds.liveBeforeRestore == nil, record.operations.allSatisfy({ $0.action != "restore" || $0.start < rounds.current.start }) {
            // Recovery as SQLite performs it for the next reader: the WAL is read (or ignored when torn) without
            // a checkpoint, so the files stay as the crash left them for whatever the schedule does next.
            journal.note("runner", .recovery, "store read back from a recovered private copy (the volume keeps the files as the crash left them)")
            let measured = Measure.store(live, label: "live store after the crash", state: true)
            var crash = CrashRecord(at: at, description: description, live: measured, liveLoss: lossRecord(store: live, what: "the live store"))
            crash.missingExternalFiles = missingExternalFileFates(measured.checks.value, store: live)
            // The same store with the attachments the app's own lost operations touched set aside: what the
            // program's invariants judge.
            let appsFiles = (crash.liveLoss?.appsExternalFiles ?? []).union(crash.missingExternalFiles.filter { $0.value.kind == .app }.keys)
            if !appsFiles.isEmpty {
                crash.liveWithoutAppsLosses = Measured.of { try StoreState.read(live, treatingAsMissing: appsFiles) }
            }
            entries.append(.crash(crash))
        } else {
            entries.append(.crash(CrashRecord(at: at, description: description, live: nil, liveLoss: nil)))
        }
        return entries
    }

    /// For `backup-durable`: every backup on the crashed volume that had reported success, read back as the crash
    /// left it (as its owner would open it next, on a private copy), with what the crash dropped under it.
    private func backupsAfterCrash(_ record: RunRecord, volume: any StoreVolume, crash: String) -> [RunRecord.Entry] {
        let root = volume.directory.standardizedFileURL.path + "/"
        return record.steps.compactMap { step in
            guard let backup = step.backup, backup.store.state?.value != nil,
                  URL(fileURLWithPath: backup.store.path).standardizedFileURL.path.hasPrefix(root) else { return nil }
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
            return .backupAfterCrash(step: step.name, after)
        }
    }

    /// Reads what the crash just made the volume drop (FaultFS volumes with an op log only), with the op log's
    /// clock mapped onto the run's (`crashAt` is when the engine cut the power).
    private func readLoss(volume: any StoreVolume, crashAt: Double) {
        guard let faultFS = volume as? FaultFSVolume, let log = faultFS.mount.log, var read = CrashLoss.read(log) else {
            loss = nil
            return
        }
        read.clockOffset = crashAt - read.crash.t
        loss = (read, volume.directory, log)
    }
}
