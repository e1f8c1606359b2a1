import Foundation
import StoreCheck

/// `blobs-carried`: every external data reference of every store the run measured resolves to its file in
/// `.<Store>_SUPPORT/_EXTERNAL_DATA`. On the live store after a crash, a file the app itself never synced (Core
/// Data renames attachments into place with no fsync, and deletes an old one inside the save) is the app's own
/// loss, judged by `app-durable`, not here.
struct BlobsCarried: Invariant {
    let name = "blobs-carried"

    func check(_ run: JudgedRun) -> [Verdict] {
        run.checkedStores.map { entry in
            let appsOwn = entry.appsMissingFiles
            var verdict = StoreCheckVerdicts.verdict(name, [.missingExternalFile], store: entry.store,
                                                     excluding: { finding in finding.externalFileName.map(appsOwn.contains) ?? false }) { report in
                "\(report.externalReferences) external references resolve"
                    + (appsOwn.isEmpty ? "" : " (\(appsOwn.count) file(s) the app never synced are app-durable's)")
            }
            if let report = entry.store.checks.value {
                let orphans = report.findings.filter { $0.kind == .orphanExternalFile }
                if !orphans.isEmpty { verdict.evidence += orphans.prefix(5).map { "\(entry.store.label): \($0)" } }
            }
            return verdict
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no store was measured in this run (no backup, restore, crash or end-of-run reading)" }
}
