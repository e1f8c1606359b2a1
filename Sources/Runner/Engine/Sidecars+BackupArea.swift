import Checks
import Foundation
import Scenario

/// The backup area's size over time, for `no-runaway`: sampled every half second while a sidecar (a continuous
/// backup tool) runs, put in the record (`BackupAreaRecord`) and judged against the writers' last commit.
extension Sidecars {
    static let backupSampleInterval = 0.5

    /// Whether the run samples the backup area: `no-runaway` is judged, and the area is not on the store's
    /// FaultFS volume (walking it there would be operations the fault rules and the op log see).
    static func samplesBackupArea(_ scenario: Scenario) -> Bool {
        !scenario.faults.backupsOnVolume && (scenario.invariants.isEmpty || scenario.invariants.contains("no-runaway"))
    }

    /// What the record keeps of the samples (nil when nothing was sampled).
    func backupArea(now: Double) -> BackupAreaRecord? {
        guard Self.samplesBackupArea(scenario), !backupSizes.isEmpty else { return nil }
        return BackupAreaRecord(samples: backupSizes, sidecarsEnded: entries.compactMap(\.end).max() ?? now)
    }

    /// Called with the sidecars' tick: one sample when one is due.
    func sampleBackupArea() {
        guard Self.samplesBackupArea(scenario), entries.contains(where: { $0.end == nil }),
              let root = environment["LIFEBOAT_BACKUP_ROOT"] else { return }
        let t = journal.clock.now()
        if let last = backupSizes.last, t - last.t < Self.backupSampleInterval { return }
        backupSizes.append(Invariants.SizeSample(t: t, bytes: Self.bytes(under: URL(fileURLWithPath: root))))
    }

    /// The bytes of every regular file under `root` (symbolic links not followed); 0 when it does not exist.
    static func bytes(under root: URL) -> Int64 {
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey, .fileSizeKey]) else { return 0 }
        var total: Int64 = 0
        for case let url as URL in walker {
            guard let values = try? url.resourceValues(forKeys: [.isRegularFileKey, .fileSizeKey]), values.isRegularFile == true else { continue }
            total += Int64(values.fileSize ?? 0)
        }
        return total
    }
}
