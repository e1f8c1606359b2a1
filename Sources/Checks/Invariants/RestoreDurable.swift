import Foundation
import StoreCheck

/// `restore-durable`: a restore that reported success, then a power failure right after: the live store
/// recovered from what was durable must still equal the backup it was given. A restore that never syncs what it
/// wrote is undone by the crash, and the finding names the operations the crash dropped. A restore that put back
/// the database only and left the app's attachment files in place, files the app wrote and never synced, loses
/// them to the crash too: still the restore's finding (it relied on files nobody made durable), and it says so.
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
            var (findings, inherited) = RestoreEqualsBackup.violations(report, lacking: run.missingFiles(givenTo: restore))
            // What differed already when the restore reported success is `restore-equals-backup`'s finding, not
            // the crash's: only what the crash changed counts here.
            let before = Set(restore.comparison?.value?.violations ?? [])
            let already = findings.filter(before.contains)
            findings.removeAll(where: before.contains)
            let note = already.isEmpty ? "" : " (\(already.count) difference(s) it already had when it reported success set aside: restore-equals-backup's finding)"
            if findings.isEmpty && (!report.hasViolations || inherited > 0 || !already.isEmpty) {
                return Verdict(name, .held, "\(label): still equals the backup after the crash \(after.crash)" + (already.isEmpty ? "" : " as far as it did before it" + note))
            }
            let appsFiles = Self.appsUnsyncedFiles(in: findings, loss: after.loss)
            var evidence = [already.isEmpty ? "\(label): equal to the backup when it reported success; after the crash \(after.crash) the live store differs"
                                            : "\(label): after the crash \(after.crash) the live store differs from the backup in \(findings.count) more way(s) than when it reported success\(note)"]
            var summary = "\(label): finished, then undone by the crash that followed it"
            if !appsFiles.isEmpty {
                // The restore kept attachment files the app had written and never synced instead of putting the
                // backup's in place: the crash took the app's writes, and the restore had relied on them.
                let all = appsFiles.count == findings.count
                summary += all ? ", in attachment files the app wrote and never synced, which the restore left in place instead of restoring the backup's" : ""
                evidence.append("\(label): \(appsFiles.count) of the \(findings.count) difference(s) are attachment files the app wrote and never synced (\(appsFiles.sorted().prefix(3).joined(separator: ", "))\(appsFiles.count > 3 ? ", ..." : "")): the restore left them in place instead of restoring the backup's support folder, and the crash took the app's unsynced writes")
            }
            var verdict = Verdict(name, .violated, summary, evidence: evidence + findings.prefix(10).map { "\(label) after the crash: \($0)" })
            verdict.cause = after.loss?.cause
            return verdict
        }
    }

    /// The findings that name an attachment file (by its name in `_EXTERNAL_DATA`) whose lost operations in the
    /// crash were all the app's own (a writer's create, write or rename that no fsync followed): what the restore
    /// inherited from the app by leaving its files in place, named as such in the finding.
    static func appsUnsyncedFiles(in findings: [Finding], loss: LossRecord?) -> Set<String> {
        guard let loss else { return [] }
        var byName: [String: [LossRecord.Operation]] = [:]
        for operation in loss.operations {
            for name in Self.externalNames(in: operation.what) { byName[name, default: []].append(operation) }
        }
        var names: Set<String> = []
        for finding in findings {
            for name in Self.externalNames(in: finding.message) {
                if let operations = byName[name], operations.allSatisfy({ $0.kind == .app }) { names.insert(name) }
            }
        }
        return names
    }

    /// The external data file names (`_EXTERNAL_DATA/<UUID>`) a text mentions.
    static func externalNames(in text: String) -> [String] {
        text.components(separatedBy: "_EXTERNAL_DATA/").dropFirst().compactMap { rest in
            let name = rest.prefix { $0.isHexDigit || $0 == "-" }
            return name.count == 36 ? String(name) : nil
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no crash after a finished restore in this run" }
}
