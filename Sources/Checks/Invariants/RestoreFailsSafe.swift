import Foundation

/// `restore-fails-safe`: a restore that reports failure (its own error, not a crash) leaves the store the app opens
/// next as it was before the restore, or as the backup whole, never removed, emptied or half replaced. A restore
/// that deletes the store and then fails to copy the backup (a full disk, an I/O error, a backup it cannot read),
/// or writes the backup straight over the store and stops part way (sqld#732: restore into the target without a
/// temporary file and a rename), loses everything the app had while saying only that it failed: the app's next
/// launch finds no store, and Core Data makes a new, empty one. `restore-equals-backup` judges restores that
/// succeeded and restores a crash cut short; this is the same all-or-nothing rule for the ones that failed.
///
/// The store is compared object by object with the store as the restore's round found it (`RoundRecord.
/// liveBeforeRestore`) and with the backup. Objects the app's writers (kept across the restore) saved after that
/// reading and before the failed restore's store was read are the app's own changes and are set aside. Judged
/// for the first restore of its round, the one the round's reading was taken for; a restore into a place that
/// held no store has nothing to keep (what it left there is `integrity`'s to judge).
struct RestoreFailsSafe: Invariant {
    let name = "restore-fails-safe"
    let fix = "check the backup before touching the store, restore into a temporary file beside it, make that durable and rename it over the store in one step; on any error before the rename, remove only the temporary file"
    let consequence = "a restore that failed left the app's store removed, emptied or half replaced: what the app had is gone although nothing was restored"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.restores.compactMap { step in
            guard !step.succeeded, !step.interrupted, let restore = step.restore, let left = restore.live.state,
                  let round = run.record.rounds.first(where: { $0.number == step.round }), let before = round.liveBeforeRestore,
                  !run.restores.contains(where: { $0.round == step.round && $0.start < step.start }) else { return nil }
            let label = step.label
            let failure = step.error.flatMap { $0.split(separator: "\n").first.map(String.init) } ?? "it reported failure"
            guard let after = left.value else {
                return Verdict(name, .violated, "\(label) failed and left no store the app can read where its store was",
                               evidence: ["\(label): \(failure)", "\(label): \(left.error ?? "?")", "before the restore the store held \(Self.count(before)) objects"])
            }
            let appsWrites = Set(RestoreEqualsBackup.appsWrites(run, after: round.liveBeforeRestoreAt ?? step.start, before: restore.readAt ?? step.end).keys)
            func objects(_ state: StoreState) -> [UUID: String] {
                state.notes.merging(state.others) { first, _ in first }.filter { !appsWrites.contains($0.key.uuidString) }
            }
            let note = appsWrites.isEmpty ? "" : " (\(appsWrites.count) object(s) the app saved meanwhile set aside)"
            let (afterObjects, beforeObjects) = (objects(after), objects(before))
            if afterObjects == beforeObjects {
                return Verdict(name, .held, "\(label) failed and left the store as it was, \(Self.count(after)) objects" + note)
            }
            let backup = run.backup(named: restore.source)?.backup?.store.state?.value
            if let backup, afterObjects == objects(backup) {
                return Verdict(name, .held, "\(label) failed after the backup was in place whole; the store equals the backup" + note)
            }
            let kept = afterObjects.filter { beforeObjects[$0.key] == $0.value }.count
            let fromBackup = backup.map { backup in " and \(afterObjects.filter { objects(backup)[$0.key] == $0.value }.count) as in the backup (\(Self.count(backup)) there)" } ?? ""
            let what = afterObjects.isEmpty ? "left the store empty" : "left the store neither as it was nor as the backup"
            return Verdict(name, .violated, "\(label) failed and \(what)" + note,
                           evidence: ["\(label): \(failure)",
                                      "\(label): \(afterObjects.count) objects after it; \(kept) as before the restore (\(beforeObjects.count) then)\(fromBackup)"])
        }
    }

    static func count(_ state: StoreState) -> Int { state.notes.count + state.others.count }

    func notExercised(_ run: JudgedRun) -> String {
        "no restore reported failure over a store in this run (a failed restore's store is read from this invariant on; records from before it have no reading)"
    }
}
