import Foundation
import StoreCheck

/// `restore-equals-backup`: after a restore the live store equals, object by object and blob by blob, the backup
/// it was given; a restore a crash cut short leaves the store all or nothing. A restore is judged against the
/// backup it was given: attachment files the backup itself lacked are the backup step's finding
/// (`blobs-carried`), so a faithful restore of an incomplete backup holds here.
struct RestoreEqualsBackup: Invariant {
    let name = "restore-equals-backup"
    let fix = "remove the live -wal and -shm before putting the database back, and replace .<Store>_SUPPORT with the backup's"
    let consequence = "the restored store is not the backup: commits or attachments change on the way back"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.restores.compactMap { step in
            guard let restore = step.restore else { return nil }
            let backup = run.backup(named: restore.source)
            if step.interrupted {
                let before = run.record.rounds.first { $0.number == step.round }?.liveBeforeRestore
                return Self.allOrNothing(restore.live.state ?? Measured(error: "not read"), before: before, backup: backup?.backup?.store.state?.value, label: step.label)
            }
            guard step.succeeded, restore.atTime == nil, let comparison = restore.comparison else { return nil }
            return Self.verdict(comparison, lacking: run.missingFiles(givenTo: restore), backup: backup, label: step.label, name: name,
                                differs: "differs from the backup", appsLaterWrites: Self.appsWrites(run, after: step.end, before: restore.readAt))
        }
    }

    /// The objects the app's writers committed after the restore had ended and before the restored store was
    /// read (`RestoreMeasurement.readAt`): the app's new saves on the restored store, not the restore's doing.
    /// Identity -> the commit, in words.
    static func appsWrites(_ run: JudgedRun, after end: Double, before readAt: Double?) -> [String: String] {
        guard let readAt, readAt > end else { return [:] }
        var writes: [String: String] = [:]
        for tx in run.transactions where tx.outcome == .committed {
            guard let ack = tx.ackAt, ack > end, ack <= readAt else { continue }
            for op in tx.ops where writes[op.id.uuidString] == nil {
                writes[op.id.uuidString] = String(format: "writer %d tx %d, acknowledged %.0f ms after the restore ended", tx.writer, tx.seq, (ack - end) * 1000)
            }
        }
        return writes
    }

    /// The comparison's violations, less the missing attachment files the backup already lacked.
    /// Where the backup lacked an attachment's file, whatever the restored store has there (nothing, or a file
    /// the restore left in place) is not the restore's difference.
    static func violations(_ report: CheckReport, lacking: Set<String>) -> (findings: [Finding], inherited: Int) {
        let inherited = report.violations.filter { finding in
            switch finding.kind {
            case .missingExternalFile: lacking.contains(JudgedRun.objectKey(finding))
            // Only when the attachment is the one attribute that differs.
            case .changedObject: finding.message.components(separatedBy: " vs expected ").count == 2
                && (finding.expectedMissingFile.map(lacking.contains) ?? false)
            default: false
            }
        }
        return (report.violations.filter { finding in !inherited.contains(finding) }, inherited.count)
    }

    static func verdict(_ comparison: Measured<CheckReport>, lacking: Set<String>, backup: StepRecord?, label: String, name: String, differs: String,
                        appsLaterWrites: [String: String] = [:]) -> Verdict {
        guard let report = comparison.value else {
            return Verdict(name, .violated, "\(label): cannot compare", evidence: [comparison.error ?? "?"])
        }
        var (findings, inherited) = violations(report, lacking: lacking)
        let laterKinds: Set<Finding.Kind> = [.extraObject, .changedObject, .missingObject]
        let later = findings.filter { laterKinds.contains($0.kind) && $0.object.map { appsLaterWrites[$0] != nil } ?? false }
        findings.removeAll { later.contains($0) }
        var note = inherited == 0 ? "" : " (\(inherited) attachment file(s) the backup \(backup?.label ?? "") itself lacked, its own finding)"
        if let first = later.first?.object.flatMap({ appsLaterWrites[$0] }) {
            note += " (\(later.count) object(s) the app saved after the restore ended set aside: \(first)" + (later.count > 1 ? ", ..." : "") + ")"
        }
        if findings.isEmpty && (!report.hasViolations || inherited > 0 || !later.isEmpty) {
            return Verdict(name, .held, "\(label): equal object by object and blob by blob" + note)
        }
        return Verdict(name, .violated, "\(label): \(differs)" + note, evidence: findings.prefix(12).map { "\(label): \($0)" })
    }

    /// A restore a crash cut short: the recovered live store must be either the store as it was before the
    /// restore or the backup, never a mixture of the two.
    static func allOrNothing(_ measured: Measured<StoreState>, before: StoreState?, backup: StoreState?, label: String) -> Verdict {
        let name = "restore-equals-backup"
        guard let before, let backup else {
            return Verdict(name, .notApplicable, "\(label): no state before the restore or of the backup to compare with")
        }
        guard let after = measured.value else {
            return Verdict(name, .violated, "\(label): the live store cannot be read after the crash", evidence: ["\(label): \(measured.error ?? "?")"])
        }
        if after.digest == before.digest { return Verdict(name, .held, "\(label): cut short by the crash; the live store recovered whole as it was before the restore") }
        if after.digest == backup.digest { return Verdict(name, .held, "\(label): cut short by the crash after its commit; the live store equals the backup") }
        func count(_ state: StoreState) -> Int { state.notes.count + state.others.count }
        let fromBefore = after.notes.filter { before.notes[$0.key] == $0.value }.count + after.others.filter { before.others[$0.key] == $0.value }.count
        let fromBackup = after.notes.filter { backup.notes[$0.key] == $0.value }.count + after.others.filter { backup.others[$0.key] == $0.value }.count
        return Verdict(name, .violated, "\(label): cut short by the crash, the live store is a mixture of the old store and the backup",
                       evidence: ["\(label): \(count(after)) objects after recovery; \(fromBefore) as before the restore (\(count(before)) then), \(fromBackup) as in the backup (\(count(backup)))"])
    }

    func notExercised(_ run: JudgedRun) -> String { "no completed restore in this run" }
}
