import Foundation
import Workload
import StoreModel

/// `saves-after-migrate`: the app's own saves after it migrated its store on its own coordinator and removed the
/// copy from it too (`backup: migrate` with `coordinator: app` and `saves_after_migrate: fail`). Apple's
/// documentation of migratePersistentStore: "After invocation of this method, the specified store is removed from
/// the coordinator"; with the copy removed as well the coordinator holds no store, and Core Data's save raises
/// "This NSPersistentStoreCoordinator has no persistent stores" (docs/fidelity.md). Nothing the app was told was
/// saved is lost (`live-store-unaffected` sets these failures aside and judges the acknowledged commits); what
/// the app asked to save after the migrate was never saved anywhere, and that is the app's doing.
struct SavesAfterMigrate: Invariant {
    let name = "saves-after-migrate"
    let owner = Owner.app
    let fix = "back up with migratePersistentStore on a coordinator of its own (or a replace backup); never migrate, then remove, the store the app's context saves through"
    let consequence = "every save the app makes after the migrate fails: the user's changes since then are never stored"
    let severity = Severity.loudFailure

    /// Whether a failed transaction is a save through a coordinator with no store.
    static func isNoStoreFailure(_ transaction: Transaction) -> Bool {
        transaction.outcome == .failed && transaction.error == StoreError.noPersistentStoresReason
    }

    func check(_ run: JudgedRun) -> [Verdict] {
        var seen = Set<String>()
        let failed = run.oracles.flatMap(\.transactions).filter(Self.isNoStoreFailure)
            .filter { seen.insert("\($0.writer)/\($0.seq)").inserted }
            .sorted { ($0.intentAt, $0.writer, $0.seq) < ($1.intentAt, $1.writer, $1.seq) }
        guard let first = failed.first else { return [] }
        let writers = Set(failed.map(\.writer)).sorted()
        var evidence = ["writer \(first.writer) tx \(first.seq) (at \(String(format: "%.2f", first.intentAt)) s) failed: \(first.error ?? "")"]
        for writer in writers {
            let mine = failed.filter { $0.writer == writer }
            evidence.append("writer \(writer): \(mine.count) save(s) failed after the migrate (tx \(mine.first!.seq)-\(mine.last!.seq)); none was acknowledged, so the app was told each one failed")
        }
        evidence.append("the migrate removed the live store from the app's coordinator and the app removed the copy too: the coordinator holds no store")
        return [Verdict(name, .violated,
                        "\(failed.count) save(s) of the app failed after it migrated its store on its own coordinator: nothing it was told was saved is lost, but what it saved afterwards went nowhere",
                        evidence: evidence)]
    }

    func notExercised(_ run: JudgedRun) -> String {
        "no save failed for want of a store (a `backup: migrate` with `coordinator: app` and `saves_after_migrate: fail` makes them)"
    }
}
