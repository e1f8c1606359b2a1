import Foundation

extension RunRecord {
    /// What a part of the run measured or did, as it hands it to the engine the moment it has it: the engine adds
    /// it to the run's one record (`add`), in the order it was measured, so no event kind or engine part writes a
    /// field of the record itself. The end of the run's own measurements (the histories, the live store at the
    /// end) are the engine's last step (Runner/Engine/RunEnd.swift).
    public enum Entry: Sendable {
        /// A step, an operation or a sidecar action that ran, with what it reported.
        case operation(OperationSummary)
        /// A problem of the run itself (an entry that names nothing, a sync that did not complete).
        case error(String)
        /// What kept the run from judging anything (a program that is not installed, a harness child that could
        /// not open the store it was given); the first one stands.
        case environmentError(String)
        /// A `damage` entry: what it damaged, where, and the bytes.
        case damage(DamageRecord)
        /// A backup or restore step as measured when it ended (the backup read right away, the restored store
        /// read before the app's writers resume).
        case step(StepRecord)
        /// The power failure, with the live store as recovery left it.
        case crash(CrashRecord)
        /// A backup that had reported success, read back after the crash (the step named by its name).
        case backupAfterCrash(step: String, BackupAfterCrash)
        /// When a `crash` fault rule froze the volume (run clock).
        case frozen(at: Double)
        /// The live store's metadata, as a backup is held to it (`metadata-preserved`).
        case liveMetadata(StoreState)
        /// A sync of the app's store or a second device's, with the store and the zone as it left them.
        case sync(SyncMeasurement)
        /// The store's objects before any writer ran (identity -> hash).
        case initial([UUID: String])
        /// What a fault rule did over the run.
        case fault(FaultSummary)
    }

    /// Adds what a part of the run returned.
    public mutating func add(_ entry: Entry) {
        switch entry {
        case .operation(let operation): operations.append(operation)
        case .error(let message): errors.append(message)
        case .environmentError(let reason): if environmentError == nil { environmentError = reason }
        case .damage(let damage): damages.append(damage)
        case .step(let step): steps.append(step)
        case .crash(let crash): self.crash = crash
        case .backupAfterCrash(let name, let after):
            if let position = steps.lastIndex(where: { $0.name == name }) { steps[position].backup?.afterCrash = after }
        case .frozen(let at): frozenAt = at
        case .liveMetadata(let metadata): liveMetadata = metadata
        case .sync(let sync): cloud.syncs.append(sync)
        case .initial(let objects): initial = objects
        case .fault(let summary): faults.append(summary)
        }
    }

    /// Adds entries in order.
    public mutating func add(_ entries: [Entry]) {
        for entry in entries { add(entry) }
    }

    /// The record as it will be once `pending` is added: what an engine part that measures in the middle of an
    /// event (a crash during a step) reads, so it sees the step the event has measured but not yet returned.
    public func adding(_ pending: [Entry]) -> RunRecord {
        var view = self
        view.add(pending)
        return view
    }
}
