import Foundation
import StoreModel

extension Invariants {
    /// `restore-opens`: the app can add the restored store with its current model and the options it passes,
    /// and it is not silently empty.
    ///
    /// As Core Data's `addPersistentStore` does, a missing store is created, empty: a restore that leaves no store
    /// at the path opens empty, it does not fail. With `recovery: "move-aside"` the app follows seed 004
    /// (Bart Jacobs, Core Data migrations): when the store will not open, it moves it into `Incompatible/` and adds
    /// a new store in its place, which opens empty; the finding says so, with the error that set it off.
    public static func restoreOpens(_ live: URL, model: ManagedObjectModel, options: StoreOptions, recovery: String = "fail",
                                    backupObjects: Int, label: String) -> Verdict {
        let name = "restore-opens"
        guard FileManager.default.fileExists(atPath: live.path) else {
            return emptyOrHeld(name, label: label, count: 0, how: "no store at \(live.lastPathComponent): addPersistentStore creates a new one",
                               backupObjects: backupObjects, evidence: ["\(label): no store at \(live.path) after the restore; Core Data's addPersistentStore creates a new, empty store there"])
        }
        do {
            // On a recovered private copy: the app's first open (and its lightweight migration) happens there,
            // so checking never migrates or otherwise writes the restored store it judges.
            let (count, how, evidence) = try StoreState.onRecoveredCopy(of: live) { copy -> (Int, String, [String]) in
                if try StoreKind.of(copy) == .layout {
                    // A user's own store: the app's model is theirs, so "opens" means it reads whole.
                    try StoreKind.requireReadable(copy)
                    return (try StoreState.readLayout(copy).notes.count, "reads whole", [])
                }
                do {
                    let store = try PersistentStore(at: copy, model: model, options: options)
                    defer { try? store.close() }
                    return (try model.entities.reduce(0) { $0 + (try store.count($1.name)) }, "opens with \(model.versionIdentifier)", [])
                } catch let error as StoreError where recovery == "move-aside" {
                    // The copy's files go aside, and the app adds a store at the same path: a new, empty one.
                    let aside = copy.deletingLastPathComponent().appendingPathComponent("Incompatible", isDirectory: true)
                    try FileManager.default.createDirectory(at: aside, withIntermediateDirectories: true)
                    for file in [copy, StoreFiles(copy).wal, StoreFiles(copy).shm] where FileManager.default.fileExists(atPath: file.path) {
                        try FileManager.default.moveItem(at: file, to: aside.appendingPathComponent(file.lastPathComponent))
                    }
                    let store = try PersistentStore(at: copy, model: model, options: options)
                    defer { try? store.close() }
                    let count = try model.entities.reduce(0) { $0 + (try store.count($1.name)) }
                    return (count, "moved aside after \(error.code), a new store opens with \(model.versionIdentifier)",
                            ["\(label): \(error)", "\(label): the app moved the store into Incompatible/ and added a new, empty store in its place (incompatible_store: move-aside)"])
                }
            }
            return emptyOrHeld(name, label: label, count: count, how: how, backupObjects: backupObjects, evidence: evidence)
        } catch {
            return Verdict(name, .violated, "\(label): the app cannot open the restored store", evidence: ["\(label): \(error)"])
        }
    }

    static func emptyOrHeld(_ name: String, label: String, count: Int, how: String, backupObjects: Int, evidence: [String]) -> Verdict {
        if count == 0, backupObjects > 0 {
            return Verdict(name, .violated, "\(label): opened empty (\(how))", evidence: evidence + ["the backup held \(backupObjects) objects"])
        }
        return Verdict(name, .held, "\(label): \(how), \(count) objects")
    }
}
