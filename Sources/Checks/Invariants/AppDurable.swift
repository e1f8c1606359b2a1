import Foundation

/// `app-durable`: what the app itself loses in a power cut, apart from any program under test. Core Data writes
/// an attachment to `<UUID>.interim`, renames it into `.<Store>_SUPPORT/_EXTERNAL_DATA` and commits, with no
/// fsync of the file or the folder, and deletes an updated attachment's old file inside the save
/// (docs/fidelity.md, "External data"); a power cut soon after leaves rows that name files the disk never got,
/// or no longer has. Those losses are the app's: reported here, each with the operation that took it from the
/// op log, and never counted against a backup or restore program. A run that expects `pass` is not failed by
/// them unless the scenario names this invariant (`invariants:` or `expect:`).
struct AppDurable: Invariant {
    let name = "app-durable"
    let fix = "nothing a backup program can change: an app that must not lose attachments in a power cut syncs them itself (or keeps them inline), and one whose store keeps a rollback journal sets PRAGMA synchronous=EXTRA (or uses WAL); back up after the app's saves settle"
    let consequence = "the app itself loses writes in a power cut (Core Data's and SQLite's behaviour, whatever the program does)"
    let severity = Severity.lostOnPowerCut
    let owner = Owner.app

    func check(_ run: JudgedRun) -> [Verdict] {
        guard let crash = run.record.crash, crash.live != nil else { return [] }
        let files = crash.missingExternalFiles.filter { $0.value.kind == .app }.sorted { $0.key < $1.key }
        // What the program's invariants set aside: a change of acknowledged data that only the app's own lost
        // attachments explain (violated as read, held with them set aside).
        var handedOver: [String] = []
        let pairs = [(DurableAfterCrash.measured(run, settingAsideAppsLosses: false), DurableAfterCrash.measured(run, settingAsideAppsLosses: true))]
            + zip(LiveStoreUnaffected.measured(run, settingAsideAppsLosses: false), LiveStoreUnaffected.measured(run, settingAsideAppsLosses: true))
            .filter { $0.0.crashed }.map { (Optional($0.0.verdict), Optional($0.1.verdict)) }
        for (asRead, setAside) in pairs where asRead?.status == .violated && setAside?.status == .held {
            handedOver += asRead?.evidence.prefix(6) ?? []
        }
        let dropped = crash.liveLoss?.appOperations ?? []
        guard !files.isEmpty || !handedOver.isEmpty else {
            return [Verdict(name, .held, dropped.isEmpty ? "the crash took none of the app's own writes from the live store"
                                : "the crash dropped \(dropped.count) of the app's unsynced operation(s), none of which the recovered store needed")]
        }
        var evidence = files.prefix(8).map { "attachment \($0.key) is missing: \($0.value.what) by \($0.value.actor ?? "the app")"
            + ($0.value.barrier == "deleted" ? ", before the commit that would have stopped naming it" : ", never synced; the crash dropped it") }
        evidence += handedOver
        evidence += dropped.prefix(6).map { "lost: \($0.what) by \($0.actor ?? "the app"), never synced" }
        if dropped.count > 6 { evidence.append("and \(dropped.count - 6) more of the app's operations, never synced") }
        let why = files.isEmpty ? " (its own operations that were never synced, listed below)"
            : " (Core Data neither syncs attachment files nor the folder it renames them into; docs/fidelity.md)"
        var verdict = Verdict(name, .violated,
                              "the app's own writes were lost in the crash: \(files.count) attachment file(s) missing"
                                  + (handedOver.isEmpty ? "" : ", acknowledged data changed") + why,
                              evidence: evidence)
        verdict.cause = crash.liveLoss?.cause
        return [verdict]
    }

    func notExercised(_ run: JudgedRun) -> String { "no crash of the live store in this run (the app's own losses are judged after a power cut)" }
}
