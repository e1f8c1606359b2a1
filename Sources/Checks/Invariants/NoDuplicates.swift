import Foundation
import StoreModel

/// `no-duplicates`: every object identity is stored once, in every store the run measured and in the CloudKit
/// zone after each sync.
struct NoDuplicates: Invariant {
    let name = "no-duplicates"
    let fix = "back up into an empty destination (or replace, not migrate, into an existing one)"
    let consequence = "objects appear twice: the app shows every duplicated record twice from now on"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        var verdicts = run.checkedStores.compactMap { entry in
            StoreCheckVerdicts.verdict(name, [.duplicateIdentity], store: entry.store) { _ in "each identity once" }
        }
        for sync in run.record.cloud.syncs {
            if let verdict = StoreCheckVerdicts.verdict(name, [.duplicateIdentity], store: sync.store, held: { _ in "each identity once" }) {
                verdicts.append(verdict)
            }
            if let zone = sync.zone { verdicts.append(Self.zone(zone, label: "zone after \(sync.label)")) }
        }
        return verdicts
    }

    /// No two records of the zone carry the same object (entity and identity).
    static func zone(_ zone: Measured<[CloudKitZone.Record]>, label: String) -> Verdict {
        guard let records = zone.value else {
            return Verdict("no-duplicates", .violated, "\(label): the zone cannot be read", evidence: ["\(label): \(zone.error ?? "?")"])
        }
        let groups = Dictionary(grouping: records, by: { "\($0.object.entity) \($0.object.id.uuidString)" }).filter { $0.value.count > 1 }
        if groups.isEmpty { return Verdict("no-duplicates", .held, "\(label): each object is one record in the zone (\(records.count) records)") }
        return Verdict("no-duplicates", .violated, "\(label): \(groups.count) object(s) held by more than one record in the zone",
                       evidence: groups.keys.sorted().prefix(12).map { "\(label): zone: \($0) is in records \(groups[$0]!.map(\.recordName).sorted().joined(separator: ", "))" })
    }

    func notExercised(_ run: JudgedRun) -> String { "no store was measured in this run (no backup, restore, crash, sync or end-of-run reading)" }
}
