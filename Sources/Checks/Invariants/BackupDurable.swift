import Foundation

/// `backup-durable`: every backup on the crashed volume that had reported success reads back as it was before
/// the crash. A backup tool that never syncs its files (or the folders it created them in) leaves a backup that
/// a power failure right after "done" takes away; the finding names the operations the crash dropped.
struct BackupDurable: Invariant {
    let name = "backup-durable"
    let fix = "fsync every file the backup writes, then the folders that name them (after the last rename), before reporting success"
    let consequence = "a power cut soon after the backup reported success loses or damages this backup"
    let severity = Severity.lostOnPowerCut

    func check(_ run: JudgedRun) -> [Verdict] {
        run.backups.compactMap { step in
            guard let backup = step.backup, let after = backup.afterCrash, let before = backup.store.state?.value else { return nil }
            let label = step.label
            var verdict: Verdict
            if after.missing {
                verdict = Verdict(name, .violated, "\(label): missing after the crash", evidence: ["\(label): no file at \(backup.store.path) after \(after.crash)"])
            } else if let state = after.state {
                if state.digest == before.digest, state.missingBlobs.isSubset(of: before.missingBlobs) {
                    return Verdict(name, .held, "\(label): reads back whole after the crash")
                }
                let lost = before.notes.keys.filter { state.notes[$0] == nil }.count + before.others.keys.filter { state.others[$0] == nil }.count
                verdict = Verdict(name, .violated, "\(label): changed by the crash after it reported success",
                                  evidence: ["\(label): \(lost) object(s) gone, \(state.missingBlobs.count) external data file(s) missing after \(after.crash)"])
            } else {
                verdict = Verdict(name, .violated, "\(label): unreadable after the crash", evidence: ["\(label): \(after.error ?? "?") after \(after.crash)"])
            }
            verdict.cause = after.loss?.cause
            return verdict
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no crash after a backup on the store's volume (faults.backups_on_volume)" }
}
