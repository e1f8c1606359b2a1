import Foundation
import StoreCheck

/// `blobs-carried`: every external data reference of every store the run measured resolves to its file in
/// `.<Store>_SUPPORT/_EXTERNAL_DATA`. On the live store after a crash, a file the app itself never synced (Core
/// Data renames attachments into place with no fsync, and deletes an old one inside the save) is the app's own
/// loss, judged by `app-durable`, not here; on a restored store, a file the backup already lacked is the backup
/// step's finding.
struct BlobsCarried: Invariant {
    let name = "blobs-carried"
    let fix = "copy .<Store>_SUPPORT/_EXTERNAL_DATA in the same snapshot as the database (hold SQLite's write lock while both are copied)"
    let consequence = "attachments are missing from the copy: the objects that name them lose their data"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.checkedStores.compactMap { entry in
            let missing = (entry.store.checks.value?.violations ?? []).filter { $0.kind == .missingExternalFile }
            let inherited = missing.filter(entry.inherited).count
            guard var verdict = StoreCheckVerdicts.verdict(name, [.missingExternalFile], store: entry.store, excluding: entry.inherited, held: { report in
                "\(report.externalReferences - inherited) external references resolve"
                    + (inherited == 0 ? "" : "; \(inherited) missing file(s) are not this store's doing (the backup it was restored from lacked them, or the app's own writes lost them: app-durable)")
            }) else { return nil }
            if let report = entry.store.checks.value {
                let orphans = report.findings.filter { $0.kind == .orphanExternalFile }
                if !orphans.isEmpty { verdict.evidence += orphans.prefix(5).map { "\(entry.store.label): \($0)" } }
            }
            return verdict
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no store was measured in this run (no backup, restore, crash or end-of-run reading)" }
}
