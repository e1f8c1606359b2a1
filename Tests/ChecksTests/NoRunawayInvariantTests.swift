@testable import Checks
import Foundation
import Testing

/// `no-runaway` through the judge, on records built by hand: writer 1's last commit is acknowledged at 3 s and a
/// sidecar runs to 30 s. A backup area that stops growing once nothing is committed holds; one that grows in
/// every third of the idle window is violated with the rate; a sidecar stopped too soon, and a run without a
/// sidecar (or with its backups on the FaultFS volume, where the area is not sampled) are not exercised.
@Suite struct NoRunawayInvariantTests {
    static let name = "no-runaway"

    /// Samples every second from 0 to 30 s: `idle(t)` bytes at each second t.
    static func verdict(until end: Double = 30, backupsOnVolume: Bool = false, _ idle: ((Double) -> Int64)?) -> Verdict {
        var record = HandBuilt.record(plan: HandBuilt.plan(backupsOnVolume: backupsOnVolume))
        if let idle {
            let samples = stride(from: 0.0, through: end, by: 1).map { Invariants.SizeSample(t: $0, bytes: idle($0)) }
            record.backupArea = BackupAreaRecord(samples: samples, sidecarsEnded: end)
        }
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func anAreaThatStopsGrowingHolds() {
        let verdict = Self.verdict { t in t < 5 ? Int64(t) * 100_000 : 500_000 }
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): the backup area (LIFEBOAT_BACKUP_ROOT): grew by 0 bytes from 8.0 s to 30.0 s (the last commit at 3.0 s), nothing committed", "\(verdict)")
    }

    @Test func anAreaThatKeepsGrowingWithNothingCommittedIsViolated() {
        let verdict = Self.verdict { t in 500_000 + Int64(t) * 100_000 }
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.summary == "violated in 1 of 1 check(s): the backup area (LIFEBOAT_BACKUP_ROOT) keeps growing with nothing committed: 2200000 bytes from 8.0 s to 30.0 s (the last commit at 3.0 s)", "\(verdict.summary)")
        #expect(verdict.evidence.first == "the backup area (LIFEBOAT_BACKUP_ROOT): 1300000 bytes at 8.0 s, 3500000 bytes at 30.0 s: 100000 bytes/s while no transaction was committed", "\(verdict.evidence)")
        #expect(verdict.severity == .cost && verdict.fix == NoRunaway().fix)
    }

    @Test func aSidecarStoppedTooSoonOrNoneIsNotExercised() {
        let soon = Self.verdict(until: 10) { t in Int64(t) * 100_000 }
        #expect(soon.status == .notApplicable && soon.summary.hasPrefix("not exercised: the backup tool ran only 2.0 s past the last commit (at 3.0 s)"), "\(soon)")
        #expect(Self.verdict(nil).summary == "not exercised: no sidecar (a continuous backup tool) in this run")
        #expect(Self.verdict(backupsOnVolume: true, nil).summary
            == "not exercised: the backup area is on the store's FaultFS volume (faults.backups_on_volume), where it is not sampled")
    }
}
