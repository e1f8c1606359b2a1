import Foundation

/// `metadata-preserved`: every backup has the live store's model version hashes (and reports its store UUID).
struct MetadataPreserved: Invariant {
    let name = "metadata-preserved"
    let fix = "copy the store as it is (replace, the backup API): migrate writes a new store with its own metadata"
    let consequence = "the copy is a different store to Core Data (new UUID or model hashes): CloudKit and migrations treat it as a stranger"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        guard let live = run.record.liveMetadata else { return [] }
        return run.backups.compactMap { step in
            guard let copy = step.backup?.store.state?.value else { return nil }
            return Self.verdict(copy, live: live, label: step.label)
        }
    }

    static func verdict(_ copy: StoreState, live: StoreState, label: String) -> Verdict {
        if copy.versionHashes != live.versionHashes {
            return Verdict("metadata-preserved", .violated, "\(label): model version hashes differ from the live store's",
                           evidence: ["\(label): entities \(copy.versionHashes.keys.sorted()) vs \(live.versionHashes.keys.sorted())"])
        }
        let uuid = copy.storeUUID == live.storeUUID ? "same store UUID" : "new store UUID \(copy.storeUUID)"
        return Verdict("metadata-preserved", .held, "\(label): model hashes equal, \(uuid)")
    }

    func notExercised(_ run: JudgedRun) -> String { "no completed backup in this run" }
}
