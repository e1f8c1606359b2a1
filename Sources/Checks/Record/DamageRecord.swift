import Foundation

/// One `damage` entry as it ran: which files it damaged, where, and the bytes before and after, every choice drawn
/// from the scenario's seed, so the report says exactly what a restore was given and a repro damages the same
/// bytes again. Measured by the runner; `restore-detects-damage` judges the restores (or, for the live store, the
/// backups) that came after it.
public struct DamageRecord: Sendable, Codable, Equatable {
    /// `damage-I`: I is the entry's index in the schedule.
    public var name: String
    public var index: Int
    /// `bit-flip`, `truncate`, `zero-page`, `drop-attachment` or `drop-wal`.
    public var kind: String
    /// The step whose backup was damaged (`backup-0`), or `live`.
    public var target: String
    /// `main`, `header` or `wal` for the kinds that damage bytes of one file; nil otherwise.
    public var place: String?
    /// When it ran (run clock).
    public var at: Double
    /// Whether anything was damaged; when not, `reason` says why (no such backup, no -wal, no attachment).
    public var applied: Bool
    public var reason: String?
    /// The damaged file, relative to the store's folder (`Library.sqlite`, `.Library_SUPPORT/_EXTERNAL_DATA/…`).
    public var file: String?
    /// drop-attachment: the row whose attachment it was (`ZNOTE.ZATTACHMENT Z_PK 12`): the file's name is a fresh
    /// UUID each run, its owner follows the seed.
    public var owner: String?
    /// The file's size before the damage, and where the damage begins and how many bytes it covers.
    public var fileBytes: Int?
    public var offset: Int?
    public var length: Int?
    /// The page (database) or frame (-wal) the damage is in, 1-based; the bit flipped (0-7).
    public var page: Int?
    public var bit: Int?
    /// Up to 16 bytes at `offset` before and after, in hex (a truncation: the first bytes cut off).
    public var before: String?
    public var after: String?
    /// A copy of the backup as it was before the damage (the runner's scratch), which a restore of the damaged
    /// backup is compared with (`RestoreMeasurement.undamagedComparison`).
    public var undamagedCopy: String?

    public init(name: String, index: Int, kind: String, target: String, place: String?, at: Double, applied: Bool, reason: String? = nil) {
        self.name = name
        self.index = index
        self.kind = kind
        self.target = target
        self.place = place
        self.at = at
        self.applied = applied
        self.reason = reason
    }

    /// "bit 3 of byte 40961 (page 11) of backup-0's Library.sqlite: 0d -> 05": the damage in a verdict's words.
    public var summary: String {
        guard applied else { return "\(name) (\(kind) of \(target)) damaged nothing: \(reason ?? "?")" }
        let whose = target == "live" ? "the live store's" : "\(target)'s"
        let file = self.file ?? "?"
        let bytes = before.map { b in " (\(b) -> \(after ?? "cut"))" } ?? ""
        switch kind {
        case "bit-flip":
            return "bit \(bit ?? 0) of byte \(offset ?? 0)\(page.map { " (\(place == "wal" ? "frame" : "page") \($0))" } ?? "") of \(whose) \(file) flipped" + bytes
        case "zero-page":
            return "\(place == "wal" ? "frame" : "page") \(page ?? 0) of \(whose) \(file) zeroed (\(length ?? 0) bytes at \(offset ?? 0))"
        case "truncate":
            return "\(whose) \(file) cut from \(fileBytes ?? 0) to \(offset ?? 0) bytes"
        default:
            return "\(whose) \(file) removed (\(fileBytes ?? 0) bytes\(owner.map { ", the attachment of \($0)" } ?? ""))"
        }
    }
}
