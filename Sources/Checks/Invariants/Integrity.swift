import Foundation
import StoreCheck

/// `integrity`: every store the run measured passes SQLite's integrity_check and Core Data's bookkeeping
/// (Z_PRIMARYKEY, Z_METADATA, relationships that resolve), and every backup opens as a store.
struct Integrity: Invariant {
    let name = "integrity"
    let fix = "copy through SQLite (the backup API or VACUUM INTO), or copy the database with its -wal under a lock; never copy a page file while a checkpoint rewrites it"
    let consequence = "the copy is a damaged store: SQLite reports corruption, or Core Data cannot read it as a store"
    let severity = Severity.damaged

    func check(_ run: JudgedRun) -> [Verdict] {
        var verdicts = run.checkedStores.compactMap { entry in
            StoreCheckVerdicts.verdict(name, [.integrity, .bookkeeping, .metadata, .unreadable, .danglingRelationship], store: entry.store) { _ in
                "integrity_check ok, bookkeeping consistent"
            }
        }
        for step in run.backups {
            if let backup = step.backup, backup.store.state?.value == nil {
                verdicts.append(Verdict(name, .violated, "\(step.label): the backup cannot be opened as a store"))
            }
        }
        return verdicts
    }

    func notExercised(_ run: JudgedRun) -> String { "no store was measured in this run (no backup, restore, crash or end-of-run reading)" }
}
