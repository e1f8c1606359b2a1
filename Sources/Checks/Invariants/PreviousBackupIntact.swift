import Foundation

/// `previous-backup-intact`: a backup step that failed left every backup that had reported success before it as it
/// was. Reporting the failure is the program's right answer to a fault (an EIO at its write, fsync or close); deleting
/// or changing the previous good backup on the way out leaves the user with none (issue 29: "the program reported
/// failure but damaged what it was given"). Judged at the end of a run without a crash (after a crash
/// `backup-durable` reads every backup again).
struct PreviousBackupIntact: Invariant {
    let name = "previous-backup-intact"
    let fix = "when a backup fails, leave the earlier backups alone: write the new one beside them and remove nothing until it is complete and durable"
    let consequence = "a failed backup also took away the previous good backup: no good backup is left"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.backups.compactMap { step in
            guard let backup = step.backup, let again = backup.afterFailedStep, let before = backup.store.state?.value else { return nil }
            let label = step.label
            if again.missing {
                return Verdict(name, .violated, "\(label): gone after \(again.failedStep) failed",
                               evidence: ["\(label): no file at \(backup.store.path) at the end of the run, after \(again.failedStep) failed"])
            }
            guard let state = again.state else {
                return Verdict(name, .violated, "\(label): unreadable after \(again.failedStep) failed",
                               evidence: ["\(label): \(again.error ?? "?") at the end of the run, after \(again.failedStep) failed"])
            }
            if state.digest == before.digest, state.missingBlobs.isSubset(of: before.missingBlobs) {
                return Verdict(name, .held, "\(label): unchanged after \(again.failedStep) failed")
            }
            let lost = before.notes.keys.filter { state.notes[$0] == nil }.count + before.others.keys.filter { state.others[$0] == nil }.count
            return Verdict(name, .violated, "\(label): changed after \(again.failedStep) failed",
                           evidence: ["\(label): \(lost) object(s) gone, \(state.missingBlobs.count) external data file(s) missing at the end of the run, after \(again.failedStep) failed"])
        }
    }

    func notExercised(_ run: JudgedRun) -> String {
        "no backup step failed after an earlier backup had reported success (in a run without a crash)"
    }
}
