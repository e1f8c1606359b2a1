import Checks
import StoreCheck
import ChildProcesses
import Foundation
import Reporting
import Scenario
import StoreModel
import Strategies
import Workload

/// `backup: STRATEGY` and `restore: STRATEGY`: one copy by a strategy of the catalog, in a child process, with
/// the scenario's crash when it is planned during the step.
struct CopyStepEvent: RunEventKind {
    var kinds: [String] { [Scenario.Step.Action.backup.rawValue, Scenario.Step.Action.restore.rawValue] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let index = event.index, let step = event.step else { return EventOutcome() }
        if step.copy.coordinator == .app {
            return EventOutcome(entries: try InAppMigrateStep().run(index, step, context))
        }
        let entries = try runStep(index, step, crashPlan: event.crash, context)
        // A crash planned during the step has happened (before, during or right after it); a crash rule may have
        // fired while it ran.
        let crashed = event.crash != nil || context.crashes.crashedByRule
        // A restore that ran and ended without a crash: with `after_restore: continue` the writers go on.
        let ran = entries.contains { if case .operation = $0 { true } else { false } }
        if step.action == .restore, !crashed, ran, context.scenario.writers.afterRestore == "continue" {
            try context.writers.beginRound(live: context.live, scratch: context.scratch, children: context.children)
        }
        return EventOutcome(entries: entries, crashed: crashed)
    }

    /// Runs one backup or restore in a child process and checks what it produced right away (a later backup
    /// into a reused directory would overwrite it); returns what it measured, in order.
    func runStep(_ index: Int, _ step: Scenario.Step, crashPlan: Scenario.Crash?, _ context: EventContext) throws -> [RunRecord.Entry] {
        let (live, scratch, children, volume, scenario, now, note) = (context.live, context.scratch, context.children, context.volume,
                                                                      context.scenario, context.now, context.note)
        let (lockstep, whileRunning, crashes) = (context.lockstep, context.whileRunning, context.crashes)
        let record = context.recorded()
        /// What the step has measured so far, in order (a crash during it reads them too).
        var entries: [RunRecord.Entry] = []
        let round = record.operations.filter { $0.name.hasPrefix("\(step.action.rawValue)-\(index)") }.count
        let name = "\(step.action.rawValue)-\(index)" + (step.times > 1 ? ".\(round + 1)" : "")
        var stepRules: [String] = []
        for (ruleIndex, rule) in scenario.faults.rules.enumerated() where rule.duringStep == index {
            stepRules.append(try volume.arm(rule))
            note("faultfs", .fault, "armed rule \(ruleIndex) for \(name): \(rule.ops.text) \(rule.path) -> \(rule.action)")
        }
        var run: StrategyRun
        let target: URL
        /// The backup a restore copies from (the last one whose files exist).
        var backupSource: (name: String, store: URL)?
        /// That backup as the restore is given it (a crash since may have taken part of it).
        var backupGiven: Measured<CheckReport>?
        switch step.action {
        case .restore:
            guard let last = record.steps.last(where: { $0.backup.map { FileManager.default.fileExists(atPath: $0.store.path) } ?? false }),
                  let path = last.backup?.store.path else {
                return [.error("\(name): no backup to restore from")]
            }
            if scenario.readers?.acrossRestore != "keep" { RunReaders.stop(children: children) }
            if scenario.writers.acrossRestore == "stop" { children.killAll { $0.name.hasPrefix("writer-") } }
            context.writers.readLiveBeforeRestore(live)
            backupSource = (last.name, URL(fileURLWithPath: path))
            backupGiven = Measure.checks(URL(fileURLWithPath: path))
            target = live
            run = StrategyRun(action: .restore, strategy: step.strategy, source: path, destination: live.path, options: Self.options(of: step, live: live))
        default:
            let base = scenario.faults.backupsOnVolume ? volume.directory : scratch
            let directory = base.appendingPathComponent("backups/\(index)" + (step.destination == "reuse" ? "" : "-\(round + 1)"))
            target = directory.appendingPathComponent(live.lastPathComponent)
            run = StrategyRun(action: .backup, strategy: step.strategy, source: live.path, destination: directory.path, options: Self.options(of: step, live: live))
        }
        let holdMarker = scratch.appendingPathComponent("hold-\(name)")
        if case .atPage(let page)? = crashPlan?.moment { run.options.hold = SQLiteBackup.Hold(page: page, marker: holdMarker.path) }
        var gate: Lockstep.GateFiles?
        if lockstep != nil, crashPlan == nil, step.action == .backup, Lockstep.steppableStrategies.contains(step.strategy) {
            let files = try Lockstep.GateFiles(scratch: scratch, name: name)
            gate = files
            run.options.gate = SQLiteBackup.Gate(fifo: files.fifo.path, progress: files.progress.path)
        }
        let start = now()
        let walAtStart = RunReaders.walBytes(live)
        note(name, .start, "\(step.strategy)")
        // Command strategies find scripts that ship beside the scenario through LIFEBOAT_SCENARIO_DIR.
        var environment = context.toolEnvironment(live: live)
        if let at = step.atTime {
            let formatter = ISO8601DateFormatter()
            formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
            environment["LIFEBOAT_RESTORE_TIME"] = formatter.string(from: Date(timeIntervalSince1970: context.epoch + at))
            environment["LIFEBOAT_RESTORE_SECONDS"] = String(at)
        }
        // A rule scoped to this step's process is armed once the process has started (ScopedFaults): the process
        // waits at a start gate until then, so a quick program's first calls are inside the rule's scope too.
        let startGate = scratch.appendingPathComponent("start-\(name)")
        let scoped = scenario.faults.rules.contains { $0.hasActor(name) == true }
        if scoped { run.startGate = startGate.path }
        let config = scratch.appendingPathComponent("\(name).json")
        try JSONEncoder().encode(run).write(to: config)
        let child = try children.start(name, executable: context.executable, arguments: ["step", "--config", config.path], environment: environment)
        if scoped { _ = FileManager.default.createFile(atPath: startGate.path, contents: nil) }
        if let gate, let lockstep { try lockstep.drive(name, child: child, gate: gate, clock: context.clock, note: note) }
        entries += try whileRunning?(child) ?? []
        try context.runDuring(index, start, child)
        var interrupted = false
        var deferredCrash: (plan: Scenario.Crash, reason: String)?
        if let crashPlan {
            var reason: String
            if case .atPage(let page) = crashPlan.moment {
                // The child stops itself at the page and says so; the crash comes while it holds.
                while child.isRunning, !FileManager.default.fileExists(atPath: holdMarker.path), now() < scenario.timeLimit, !Interruption.requested { usleep(1_000) }
                let held = (try? String(contentsOf: holdMarker, encoding: .utf8))?.split(separator: " ").compactMap { Int($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
                interrupted = child.isRunning
                if let held, held.count == 2 {
                    reason = "during \(name) at page \(held[0]) of \(held[1])"
                } else {
                    reason = "right after \(name) (it never reached page \(page): a clone, a copy of fewer pages, or a strategy without a page loop)"
                }
            } else {
                // `at_end`: the crash waits for the program's end (the run's time limit at most); otherwise the
                // delay, which under `turns` is the seeded turns `whileRunning` gave.
                var deadline = Date.distantFuture
                if case .delay(let seconds) = crashPlan.moment { deadline = Date().addingTimeInterval(whileRunning == nil ? seconds : 0) }
                while child.isRunning, Date() < deadline, now() < scenario.timeLimit, !Interruption.requested { usleep(1_000) }
                interrupted = child.isRunning
                reason = interrupted ? "during \(name), \(String(format: "%.3f", now() - start)) s in" : "right after \(name) (it finished before the crash point)"
            }
            if !interrupted {
                // The step finished first: freeze the writers where they are (the power fails now), take the
                // backup's state as it reported success (or compare the restored store with the backup), then
                // crash, so `backup-durable` and `restore-durable` can compare the two.
                children.pauseAll()
                deferredCrash = (crashPlan, reason)
            } else {
                entries += try crashes.simulate(crashPlan, children: children, volume: volume, live: live, reason: reason, pending: entries)
            }
        }
        let status = try children.wait(child, timeout: max(1, scenario.timeLimit - now()))
        if deferredCrash == nil, !interrupted, let crash = try crashes.crashIfFrozen(children: children, volume: volume, live: live, pending: entries) {
            // A crash rule fired while the step ran: the step died with the power, it did not fail.
            entries += crash
            interrupted = true
        }
        let end = now()
        for id in stepRules { try? volume.disarm(id) }
        let output = child.output
        let outcome = output.split(separator: "\n").last.flatMap { try? JSONDecoder().decode(StrategyOutcome.self, from: Data($0.utf8)) }
        let succeeded = status == 0 && outcome != nil && !interrupted
        var summary = OperationSummary(name: name, action: step.action.rawValue, strategy: step.strategy, start: start, end: end,
                                       succeeded: succeeded, store: target.path, details: outcome?.details ?? [:],
                                       error: succeeded ? nil : (interrupted ? "interrupted by the crash"
                                           : OutputExcerpt.headAndTail(output, limit: 1600) + "\n(full output: logs/\(name).log in the run directory)"))
        if let peak = outcome?.details["peakRSSKiB"] { summary.details["peakRSSKiB"] = peak }
        summary.details["walBytesAtStart"] = String(walAtStart)
        if let backupSource { summary.details["restoredFrom"] = backupSource.name }
        summary.details["walBytesAtEnd"] = String(RunReaders.walBytes(live))
        let environmentFailure = interrupted ? nil : RunEnvironment.failure(ofStepOutput: output)
        if let environmentFailure { summary.details["environmentError"] = environmentFailure }
        note(name, .end, succeeded ? "done" : "failed: \(summary.error ?? "")")
        // Its program never ran: an environment error of the run, never a finding about the program.
        if let environmentFailure { throw StepEnvironmentError(entries: entries + [.operation(summary)],
                                                               error: .environment("\(name) (\(step.strategy)): \(environmentFailure)")) }
        var stepRecord = StepRecord(name: name, index: index, action: step.action == .restore ? .restore : .backup, strategy: step.strategy,
                                    start: start, end: end, round: context.writers.current.number, succeeded: succeeded, interrupted: interrupted,
                                    error: succeeded ? nil : summary.error)
        if step.action == .restore {
            let label = "\(name) (\(step.strategy))"
            // The restored store is read as the restore left it: the app's writers (kept across the restore) are
            // stopped from the restore's end until the readings below are taken, so a commit made after the
            // restore is not taken for the restore's doing; `readAt` says when, for the judge.
            let writersStopped = succeeded && deferredCrash == nil && scenario.writers.acrossRestore == "keep"
            if writersStopped { children.signal(SIGSTOP) { $0.name.hasPrefix("writer-") } }
            defer { if writersStopped { children.signal(SIGCONT) { $0.name.hasPrefix("writer-") } } }
            var restore = RestoreMeasurement(source: backupSource?.name ?? "", live: Measure.store(live, label: "live store after \(label)",
                                                                                                  state: !succeeded || step.atTime != nil))
            restore.backupAsGiven = backupGiven
            restore.readAt = now()
            if succeeded { restore.connections = ConnectionsProbe.measure(live: live, children: children) }
            entries.append(.operation(summary))
            guard succeeded else {
                stepRecord.restore = restore
                entries.append(.step(stepRecord))
                if let deferredCrash {
                    entries += try crashes.simulate(deferredCrash.plan, children: children, volume: volume, live: live, reason: deferredCrash.reason, pending: entries)
                }
                return entries
            }
            if let at = step.atTime {
                // Restored to a moment, not to the backup: held to the writers' histories as they stood then.
                restore.atTime = at
            } else if let backupSource {
                // A backup a `damage` entry damaged is compared as it was before the damage (DamageEvent): the
                // backup the program made, which a tool restoring from a repository of its own gives back.
                if let undamaged = context.recorded().damages.last(where: { $0.target == backupSource.name && $0.applied })?.undamagedCopy {
                    restore.undamagedComparison = Measure.comparison(live, against: URL(fileURLWithPath: undamaged))
                    restore.comparison = restore.undamagedComparison
                } else {
                    restore.comparison = Measure.comparison(live, against: backupSource.store)
                }
            }
            // The crash comes after the restore's step record in the record, as it came after the restore.
            var afterCrash: [RunRecord.Entry] = []
            if let deferredCrash, let backupSource {
                afterCrash = try crashes.simulate(deferredCrash.plan, children: children, volume: volume, live: live, reason: deferredCrash.reason,
                                                  pending: entries)
                restore.afterCrash = RestoreAfterCrash(crash: deferredCrash.reason,
                                                       comparison: Measure.comparison(live, against: backupSource.store),
                                                       loss: crashes.lossRecord(store: live, what: "the restored store"))
            }
            let model = ManagedObjectModel.named(scenario.appModel, inheritance: scenario.store.inheritance)
            var appOptions = StoreOptions()
            (appOptions.migrateAutomatically, appOptions.inferMappingModel) = (scenario.migrateAutomatically, scenario.inferMappingModel)
            restore.open = Measure.open(live, model: model, options: appOptions, recovery: scenario.incompatibleStore)
            stepRecord.restore = restore
            entries.append(.step(stepRecord))
            return entries + afterCrash
        }
        var metadata: RunRecord.Entry?
        if succeeded {
            let store = Measure.store(target, label: "\(name) (\(step.strategy))", state: true)
            if let state = store.state?.value { summary.details["stateDigest"] = state.digest }
            stepRecord.backup = BackupMeasurement(store: store, onVolume: target.standardizedFileURL.path.hasPrefix(volume.directory.standardizedFileURL.path + "/"))
            metadata = context.liveAtStart.metadata(live)
        }
        entries.append(.operation(summary))
        if let metadata { entries.append(metadata) }
        entries.append(.step(stepRecord))
        if let deferredCrash {
            entries += try crashes.simulate(deferredCrash.plan, children: children, volume: volume, live: live, reason: deferredCrash.reason, pending: entries)
        }
        return entries
    }
}

extension CopyStepEvent {
    /// The strategy's options from the step's keys (docs/scenario-file.md).
    static func options(of step: Scenario.Step, live: URL) -> StrategyOptions {
        var options = StrategyOptions()
        if let v = step.pagesPerStep { options.pagesPerStep = Int32(v) }
        if let v = step.stepDelay { options.stepDelay = v }
        if let v = step.maxRestarts { options.maxRestarts = v }
        options.command = step.command
        if step.allowClone == false { options.allowClone = false }
        if step.copyExternalData == false { options.copyExternalData = false }
        if let v = step.migrateExisting.flatMap(MigrateOptions.ExistingDestination.init(rawValue:)) { options.migrateExistingDestination = v }
        // A user's store has no identity attribute: the oracle names its objects by table and key, so a migrate
        // keeps the keys there (docs/fidelity.md); Core Data's new keys are what the CLI and bench use.
        options.keepSourceKeys = step.strategy.contains("migrate") && (try? StoreKind.of(live)) == .layout
        return options
    }
}

/// A step whose program never ran (not installed, not executable): what the step measured before that, which
/// the engine adds to the record before it ends the run as an environment error.
struct StepEnvironmentError: Error {
    var entries: [RunRecord.Entry]
    var error: RunError
}
