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
    /// The kinds that damage bytes of one file (and so take `where:`).
    public static let inFile: Set<String> = ["bit-flip", "truncate", "zero-page"]

    var key: String { "damage" }
    var argument: String { "{target: backup N | live, kind: KIND}" }
    var keys: [String] { ["target", "kind", "where"] + ScheduleTriggers.keys }

    func parse(_ r: inout NodeReader, node: Node, index: Int) throws -> Scenario.Step {
        var kind: String?
        var target: String?
        var place: Scenario.Damage.Place?
        let context = "schedule[\(index)].damage"
        if let value = r.node(key), case .mapping = value {
            var inner = try NodeReader(value, file: r.file, context: context)
            kind = try inner.choice("kind", Self.kinds)
            target = try inner.string("target")
            place = try inner.choice("where", Scenario.Damage.Place.self)
            try inner.finish()
        } else {
            kind = try r.choice(key, Self.kinds)
        }
        // Both keys may also sit beside `damage:`; each read before either is checked, as the file is read in order.
        let (outerTarget, outerPlace) = (try r.string("target"), try r.choice("where", Scenario.Damage.Place.self))
        if let outerTarget {
            if target != nil { throw r.error(r.node("target"), "\(context) gives `target` twice") }
            target = outerTarget
        }
        if let outerPlace {
            if place != nil { throw r.error(r.node("where"), "\(context) gives `where` twice") }
            place = outerPlace
        }
        guard let kind else { throw r.error(node, "\(context) needs `kind: \(Self.kinds.joined(separator: " | "))`") }
        guard let target else { throw r.error(node, "\(context) needs `target: backup N` (the backup of schedule[N]) or `target: live`") }
        guard let typed = Scenario.Damage.Target(text: target) else {
            throw r.error(r.node(key) ?? node, "\(context).target must be `backup N` (N: the schedule index of a backup entry) or `live`, not '\(target)'")
        }
        if place != nil, !Self.inFile.contains(kind) {
            throw r.error(r.node(key) ?? node, "\(context): `where` is for \(Self.inFile.sorted().joined(separator: ", ")); \(kind) names its file itself")
        }
        let damage = Scenario.Damage(target: typed, place: Self.inFile.contains(kind) ? place ?? .main : nil)
        var step = Scenario.Step(action: Scenario.Step.Action(rawValue: key), strategy: kind, details: .damage(damage))
        try ScheduleTriggers.read(&r, into: &step, node: node, index: index)
        return step
    }

    func render(_ step: Scenario.Step) -> [String] {
        (step.damage.map { ["    target: \(ScenarioYAML.quote($0.target.text))"] } ?? [])
            + (step.damage?.place.map { ["    where: \($0.rawValue)"] } ?? [])
            + ScheduleTriggers.render(step)
    }

    /// A backup target must name a backup entry, and the damage must come once it has finished.
    func problem(_ step: Scenario.Step, index: Int, in scenario: Scenario) -> (key: String, message: String)? {
        guard case .backup(let n) = step.damage?.target else { return nil }
        guard n < scenario.schedule.count, scenario.schedule[n].action == .backup else {
            return (key, "schedule[\(index)].damage names backup \(n), but schedule[\(n)] is not a backup entry")
        }
        guard let after = step.afterStep, after >= n else {
            return (key, "schedule[\(index)].damage of backup \(n) needs `after_step: \(n)` (or a later entry): the backup must exist before it is damaged")
        }
        return nil
    }
}

extension Scenario {
    /// A `damage:` entry's keys (its kind is the entry's value, `Step.strategy`, as every kind's value is).
    public struct Damage: Sendable, Equatable, Codable {
        /// What is damaged: the live store, or the backup made by the backup entry at this schedule index.
        public enum Target: Sendable, Hashable, Codable {
            case live
            case backup(Int)

            /// `live` or `backup N`, as the file writes it; nil for any other text.
            public init?(text: String) {
                if text == "live" { self = .live; return }
                let parts = text.split(separator: " ")
                guard parts.count == 2, parts[0] == "backup", let n = Int(parts[1]), n >= 0 else { return nil }
                self = .backup(n)
            }

            /// The text of `target:`.
            public var text: String {
                switch self {
                case .live: "live"
                case .backup(let n): "backup \(n)"
                }
            }
        }

        /// Where in the store's files a kind that damages bytes of one file (`DamageEntry.inFile`) does it.
        public enum Place: String, Sendable, CaseIterable, Codable {
            /// A page after the first of the database file.
            case main
            /// The database's first page (its header and the schema's root).
            case header
            /// A frame of the -wal, after its 32-byte header.
            case wal
        }

        public var target: Target
        /// `where:`: `.main` unless the file says otherwise for the kinds that take it, nil for the others (they
        /// name their file themselves), so the parser applies the default once and the runner reads what it gets.
        public var place: Place?

        public init(target: Target, place: Place? = nil) {
            self.target = target
            self.place = place
        }
    }
}

extension Scenario.Step {
    /// The keys of a `damage:` entry, nil for any other kind.
    public var damage: Scenario.Damage? {
        if case .damage(let damage) = details { damage } else { nil }
    }
}
