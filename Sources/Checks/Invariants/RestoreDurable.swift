import Foundation

/// `restore-durable`: a restore that reported success, then a power failure right after: the live store
/// recovered from what was durable must still equal the backup it was given. A restore that never syncs what it
/// wrote is undone by the crash, and the finding names the operations the crash dropped.
struct RestoreDurable: Invariant {
    let name = "restore-durable"
    let fix = "fsync the restored files, then the folder that names them, after the last rename, before reporting success"
    let consequence = "a power cut soon after the restore reported success undoes the restore"
    let severity = Severity.lostOnPowerCut

    func check(_ run: JudgedRun) -> [Verdict] {
        run.restores.compactMap { step in
            guard let restore = step.restore, let after = restore.afterCrash else { return nil }
            let label = step.label
            guard let report = after.comparison.value else {
                var verdict = Verdict(name, .violated, "\(label): finished, then undone by the crash that followed it",
                                      evidence: ["\(label): the live store cannot be read after the crash \(after.crash): \(after.comparison.error ?? "?")"])
                verdict.cause = after.loss?.cause
                return verdict
            }
            let (findings, inherited) = RestoreEqualsBackup.violations(report, lacking: run.missingFiles(givenTo: restore))
            if findings.isEmpty && (!report.hasViolations || inherited > 0) {
                return Verdict(name, .held, "\(label): still equals the backup after the crash \(after.crash)")
            }
            var verdict = Verdict(name, .violated, "\(label): finished, then undone by the crash that followed it",
                                  evidence: ["\(label): equal to the backup when it reported success; after the crash \(after.crash) the live store differs"]
                                      + findings.prefix(10).map { "\(label) after the crash: \($0)" })
            verdict.cause = after.loss?.cause
            return verdict
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no crash after a finished restore in this run" }
}
