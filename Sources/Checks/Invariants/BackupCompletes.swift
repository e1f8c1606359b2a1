import Foundation

/// `backup-completes`: every backup step the crash did not cut short reports success.
struct BackupCompletes: Invariant {
    let name = "backup-completes"
    let fix = "read the step's output (logs/<step>.log): a backup that gives up under writers needs a lock, a retry budget or an API that does not restart (VACUUM INTO, the backup API in one step)"
    let consequence = "no backup: the step failed or gave up"
    let severity = Severity.loudFailure

    func check(_ run: JudgedRun) -> [Verdict] {
        run.backups.compactMap { step in
            if step.succeeded {
                return Verdict(name, .held, "\(step.label) finished in \(String(format: "%.2f", step.end - step.start)) s")
            }
            if step.interrupted { return nil }
            return Verdict(name, .violated, "\(step.label) failed",
                           evidence: ["\(step.name): \((step.error ?? "").trimmingCharacters(in: .whitespacesAndNewlines))"])
        }
    }

    func notExercised(_ run: JudgedRun) -> String {
        run.backups.isEmpty ? "no backup in this run" : "every backup was cut short by the crash"
    }
}
