import Foundation
import Yams

/// `damage: {target: backup N | live, kind: KIND, where: main | header | wal}`: damage at rest, the commonest
/// real backup failure (Jepsen's NATS analysis flipped bits and truncated files; TigerBeetle is tested against
/// latent sector errors): a backup's files (or the live store's) are damaged between the backup and the restore,
/// and `restore-detects-damage` asks whether the restore (or the tool's verify) refuses them loudly or gives back
/// a correct store. The kind may also be the entry's value (`damage: bit-flip` with `target:` and `where:` beside
/// it). Which page, byte, bit, cut or attachment is drawn from the scenario's seed (SeededRandomness), and the run
/// record says what was damaged, where, and the bytes before and after.
///
/// | kind | what |
/// |---|---|
/// | `bit-flip` | one bit of one byte flipped |
/// | `zero-page` | one page (of the database; of a frame in the -wal) written as zeros |
/// | `truncate` | the file cut short at a page (frame) boundary; `where: header`: inside the 100-byte header |
/// | `drop-attachment` | one attachment file of `.<Store>_SUPPORT/_EXTERNAL_DATA` removed |
/// | `drop-wal` | the `-wal` removed |
///
/// `where` (bit-flip, zero-page, truncate; default `main`): `main` a page after the first of the database file,
/// `header` its first page (the header and the schema's root), `wal` the `-wal` after its 32-byte header.
public struct DamageEntry: ScheduleEntryKind {
    public static let kinds = ["bit-flip", "truncate", "zero-page", "drop-attachment", "drop-wal"]
    public static let places = ["main", "header", "wal"]
    /// The kinds that damage bytes of one file (and so take `where:`).
    public static let inFile: Set<String> = ["bit-flip", "truncate", "zero-page"]

    var key: String { "damage" }
    var argument: String { "{target: backup N | live, kind: KIND}" }
    var keys: [String] { ["target", "kind", "where"] + ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        var kind: String?
        var target: String?
        var place: String?
        let context = "schedule[\(index)].damage"
        if let value = r.node(key), case .mapping = value {
            var inner = try NodeReader(value, file: r.file, context: context)
            kind = try inner.choice("kind", Self.kinds)
            target = try inner.string("target")
            place = try inner.choice("where", Self.places)
            try inner.finish()
        } else {
            kind = try r.choice(key, Self.kinds)
        }
        for (name, value) in [("target", try r.string("target")), ("where", try r.choice("where", Self.places))] {
            guard let value else { continue }
            if (name == "target" ? target : place) != nil { throw r.error(r.node(name), "\(context) gives `\(name)` twice") }
            if name == "target" { target = value } else { place = value }
        }
        guard let kind else { throw r.error(node, "\(context) needs `kind: \(Self.kinds.joined(separator: " | "))`") }
        guard let target else { throw r.error(node, "\(context) needs `target: backup N` (the backup of schedule[N]) or `target: live`") }
        guard Self.backupIndex(target) != nil || target == "live" else {
            throw r.error(r.node(key) ?? node, "\(context).target must be `backup N` (N: the schedule index of a backup entry) or `live`, not '\(target)'")
        }
        if place != nil, !Self.inFile.contains(kind) {
            throw r.error(r.node(key) ?? node, "\(context): `where` is for \(Self.inFile.sorted().joined(separator: ", ")); \(kind) names its file itself")
        }
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: kind)
        step.options["target"] = target
        if Self.inFile.contains(kind) { step.options["where"] = place ?? "main" }
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    /// N of `backup N`, or nil.
    public static func backupIndex(_ target: String) -> Int? {
        let parts = target.split(separator: " ")
        guard parts.count == 2, parts[0] == "backup", let n = Int(parts[1]), n >= 0 else { return nil }
        return n
    }

    func render(_ step: Scenario.Step) -> [String] {
        ["    target: \(ScenarioYAML.quote(step.options["target"] ?? "live"))"]
            + (step.options["where"].map { ["    where: \($0)"] } ?? [])
            + ScheduleTriggers.render(step)
    }

    /// A backup target must name a backup entry, and the damage must come once it has finished.
    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard let n = step.options["target"].flatMap(Self.backupIndex) else { return nil }
        guard n < scenario.schedule.count, scenario.schedule[n].action == .backup else {
            return (key, "schedule[\(index)].damage names backup \(n), but schedule[\(n)] is not a backup entry")
        }
        guard let after = step.afterStep, after >= n else {
            return (key, "schedule[\(index)].damage of backup \(n) needs `after_step: \(n)` (or a later entry): the backup must exist before it is damaged")
        }
        return nil
    }
}
