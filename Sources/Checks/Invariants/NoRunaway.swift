import Foundation

/// `no-runaway`: once nothing is committed any more, a continuous backup tool (a sidecar) stops adding to its
/// backup. With no commit at all, a replica that still grows steadily is a loop (Litestream 0.5.5 and 0.5.6
/// snapshot an idle database forever, https://github.com/benbjohnson/litestream/issues/997) that fills a disk
/// or a bucket without limit.
struct NoRunaway: Invariant {
    let name = "no-runaway"
    let fix = "upgrade or configure the tool so an idle database stops producing new snapshots"
    let consequence = "the backup keeps growing while nothing changes: storage cost without bound"
    let severity = Severity.cost

    func check(_ run: JudgedRun) -> [Verdict] {
        guard let area = run.record.backupArea, !area.samples.isEmpty else { return [] }
        // The idle window: from the last acknowledged commit to the last sidecar's end, or to the first step that
        // began after that commit (a step may write into the backup area itself).
        let lastCommit = run.transactions.compactMap(\.ackAt).max() ?? 0
        var end = area.sidecarsEnded
        if let step = run.record.operations.filter({ $0.action != "sidecar" && $0.start > lastCommit }).map(\.start).min() { end = min(end, step) }
        return [Invariants.noRunaway(area.samples, lastCommit: lastCommit, end: end, area: "the backup area (LIFEBOAT_BACKUP_ROOT)")]
    }

    func notExercised(_ run: JudgedRun) -> String {
        run.record.plan.backupsOnVolume ? "the backup area is on the store's FaultFS volume (faults.backups_on_volume), where it is not sampled"
            : "no sidecar (a continuous backup tool) in this run"
    }
}
