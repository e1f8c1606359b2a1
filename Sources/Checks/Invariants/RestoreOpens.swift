import Foundation

/// `restore-opens`: the app can add the restored store with its current model and the options it passes, and it
/// is not silently empty (a store that is missing, or moved aside as incompatible, opens empty: Core Data makes a
/// new one).
struct RestoreOpens: Invariant {
    let name = "restore-opens"
    let fix = "open the restored store with the migration options (NSMigratePersistentStoresAutomaticallyOption, NSInferMappingModelAutomaticallyOption) or migrate it first"
    let consequence = "the app cannot open the restored store (or opens it empty)"
    let severity = Severity.loudFailure

    func check(_ run: JudgedRun) -> [Verdict] {
        run.restores.compactMap { step in
            guard let restore = step.restore, let open = restore.open else { return nil }
            let label = step.label
            guard let opened = open.value else {
                return Verdict(name, .violated, "\(label): the app cannot open the restored store", evidence: ["\(label): \(open.error ?? "?")"])
            }
            let backupState = run.backup(named: restore.source)?.backup?.store.state?.value
            let backupObjects = backupState.map { $0.notes.count + $0.others.count } ?? 0
            if opened.objects == 0, backupObjects > 0 {
                return Verdict(name, .violated, "\(label): opened empty (\(opened.how))",
                               evidence: opened.evidence.map { "\(label): \($0)" } + ["the backup held \(backupObjects) objects"])
            }
            return Verdict(name, .held, "\(label): \(opened.how), \(opened.objects) objects")
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no completed restore in this run" }
}
