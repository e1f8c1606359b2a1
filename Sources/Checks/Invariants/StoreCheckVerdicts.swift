import Foundation
import StoreCheck

/// The three invariants one pass of the store checker answers (`integrity`, `no-duplicates`, `blobs-carried`),
/// over every store the run measured (`JudgedRun.checkedStores`): each backup, each restored store, the live
/// store after a crash and at the end. The store after each CloudKit sync is judged by `no-duplicates` alone,
/// locally and in the zone (NoDuplicates.swift).
enum StoreCheckVerdicts {
    /// One verdict of `name` on one checked store: held (saying what was examined), or violated with the
    /// checker's findings of `kinds`, less those `excluded` (the app's own losses, judged by `app-durable`).
    /// A store that could not be checked at all is an `integrity` violation ("no store"); the other invariants
    /// examined nothing there (nil).
    static func verdict(_ name: String, _ kinds: Set<Finding.Kind>, store: StoreMeasurement,
                        excluding excluded: (Finding) -> Bool = { _ in false }, held what: (CheckReport) -> String) -> Verdict? {
        let label = store.label
        guard let report = store.checks.value else {
            return name == "integrity" ? Verdict(name, .violated, "\(label): no store", evidence: [store.checks.error ?? "not measured"]) : nil
        }
        let matching = report.violations.filter { kinds.contains($0.kind) }
        let found = matching.filter { !excluded($0) }
        let count = kinds.reduce(0) { $0 + report.count($1) } - (matching.count - found.count)
        if found.isEmpty { return Verdict(name, .held, "\(label): \(what(report))") }
        return Verdict(name, .violated, "\(label): \(count) finding(s)", evidence: found.prefix(12).map { "\(label): \($0)" })
    }
}

extension Finding {
    /// The attachment file a comparison expected and found missing in the expected store ("... vs expected
    /// missing file _EXTERNAL_DATA/NAME"), if the finding is one.
    public var expectedMissingFile: String? {
        guard let range = message.range(of: "expected missing file _EXTERNAL_DATA/") else { return nil }
        return message[range.upperBound...].split(whereSeparator: { $0 == "," || $0 == " " || $0 == ";" }).first.map(String.init)
    }

    /// The external data file a `missing-external-file` finding names (the last component of
    /// `.../_EXTERNAL_DATA/NAME`), if any.
    public var externalFileName: String? {
        guard let range = message.range(of: "/_EXTERNAL_DATA/") else { return nil }
        return message[range.upperBound...].split(whereSeparator: { $0 == "," || $0 == " " }).first.map(String.init)
    }
}
