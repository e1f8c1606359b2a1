import Foundation

/// Every invariant, once, in report order: the scenario parser takes the names from here, the judge the checks.
/// Adding an invariant is its file in Sources/Checks/Invariants plus a line here (and its row in
/// docs/invariants.md).
public enum InvariantRegistry {
    /// `restore-detects-damage` comes first: in a run with damage, the integrity and equality findings of the restored
    /// store follow from the silent restore, so its verdict (and its fix) is the one a caught run names first.
    public static let all: [any Invariant] = [
        RestoreDetectsDamage(), Integrity(), NoDuplicates(), WalContentCarried(), SnapshotConsistent(), BlobsCarried(),
        RestoreEqualsBackup(), RestoreOpens(), RestoreFailsSafe(), DurableAfterCrash(), LiveStoreUnaffected(), MetadataPreserved(),
        BackupCompletes(), BackupDurable(), PreviousBackupIntact(), ReaderConsistent(), RestoreDurable(), RestoreAtTime(), ConnectionsAgree(),
        CloudConsistent(), RelocationCompletes(), RelocationCarriesCommits(), MetricsWithinBounds(), NoRunaway(),
        AppDurable(), SavesAfterMigrate(),
    ]

    /// Every invariant's name.
    public static var names: [String] { all.map(\.name) }

    /// The invariant named `name`.
    public static func invariant(named name: String) -> (any Invariant)? { all.first { $0.name == name } }
}
