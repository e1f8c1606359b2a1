import Foundation
import Yams

/// Reads one YAML mapping field by field, with every mistake reported at its line and column: unknown keys
/// (with the keys that are allowed), wrong types (with the type expected), values out of range.
struct NodeReader {
    let file: String
    let context: String
    let pairs: [(key: String, keyMark: Mark?, value: Node)]
    let mark: Mark?
    private(set) var used: Set<String> = []
    /// Every key the parser looked for, present or not: the keys this mapping knows, for "did you mean".
    private(set) var asked: Set<String> = []

    init(_ node: Node, file: String, context: String) throws {
        self.file = file
        self.context = context
        mark = node.mark
        guard case .mapping(let mapping) = node else {
            throw ScenarioError(file: file, line: node.mark?.line ?? 1, column: node.mark?.column ?? 1,
                                message: "\(context) must be a mapping (key: value lines)")
        }
        var pairs: [(String, Mark?, Node)] = []
        var merged: [(String, Mark?, Node)] = []
        for (key, value) in mapping {
            guard let name = key.string else {
                throw ScenarioError(file: file, line: key.mark?.line ?? 1, column: key.mark?.column ?? 1, message: "keys must be text")
            }
            if name == "<<", case .mapping(let defaults) = value {
                // YAML merge key: the anchored mapping's pairs are defaults for this one.
                for (k, v) in defaults { if let n = k.string { merged.append((n, k.mark, v)) } }
                continue
            }
            pairs.append((name, key.mark, value))
        }
        let own = Set(pairs.map(\.0))
        self.pairs = pairs + merged.filter { !own.contains($0.0) }
    }

    func error(_ node: Node?, _ message: String) -> ScenarioError {
        let place = node?.mark ?? mark
        return ScenarioError(file: file, line: place?.line ?? 1, column: place?.column ?? 1, message: message)
    }

    mutating func node(_ key: String) -> Node? {
        asked.insert(key)
        guard let pair = pairs.first(where: { $0.key == key }) else { return nil }
        used.insert(key)
        if case .scalar(let scalar) = pair.value, scalar.string == "~" || scalar.string == "null" { return nil }
        return pair.value
    }

    var keys: [String] { pairs.map(\.key) }

    /// The node as an Int. YAML 1.1's base-60 integers (`1:30:00`) are refused rather than passed to Yams,
    /// whose conversion multiplies without overflow checks and traps on a long one (`1:1:1:1:1:1:1:1:1:1:1:1`).
    static func wholeNumber(_ node: Node) -> Int? {
        guard let text = node.string, !text.contains(":") else { return nil }
        return node.int
    }

    mutating func string(_ key: String) throws -> String? {
        guard let node = node(key) else { return nil }
        guard case .scalar(let scalar) = node else { throw error(node, "\(context).\(key) must be text") }
        return scalar.string
    }

    mutating func int(_ key: String, range: ClosedRange<Int> = 0...Int.max) throws -> Int? {
        guard let node = node(key) else { return nil }
        guard let value = Self.wholeNumber(node) else { throw error(node, "\(context).\(key) must be a whole number, not '\(node.string ?? "?")'") }
        guard range.contains(value) else { throw error(node, "\(context).\(key) must be between \(range.lowerBound) and \(range.upperBound), not \(value)") }
        return value
    }

    mutating func double(_ key: String, range: ClosedRange<Double> = 0...Double.greatestFiniteMagnitude) throws -> Double? {
        guard let node = node(key) else { return nil }
        guard let value = node.float ?? Self.wholeNumber(node).map(Double.init) else {
            throw error(node, "\(context).\(key) must be a number, not '\(node.string ?? "?")'")
        }
        guard range.contains(value) else { throw error(node, "\(context).\(key) must be between \(range.lowerBound) and \(range.upperBound), not \(value)") }
        return value
    }

    mutating func bool(_ key: String) throws -> Bool? {
        guard let node = node(key) else { return nil }
        guard let value = node.bool else { throw error(node, "\(context).\(key) must be true or false, not '\(node.string ?? "?")'") }
        return value
    }

    /// A byte size: a number of bytes or text like 128KiB, 2MB, at most `range.upperBound` (by default
    /// `ByteSizeText.maximumValueSize`: sizes are of single values the generator and writers hold in memory).
    mutating func size(_ key: String, range: ClosedRange<Int> = 0...ByteSizeText.maximumValueSize) throws -> Int? {
        guard let node = node(key) else { return nil }
        guard let text = node.string, let value = Self.wholeNumber(node) ?? ByteSizeText.parse(text), value >= 0 else {
            throw error(node, "\(context).\(key) must be a size such as 4096, 128KiB or 2MB, not '\(node.string ?? "?")'")
        }
        guard range.contains(value) else {
            throw error(node, "\(context).\(key) must be between \(range.lowerBound) and \(range.upperBound) bytes, not \(text)")
        }
        return value
    }

    mutating func choice(_ key: String, _ allowed: [String]) throws -> String? {
        guard let node = node(key) else { return nil }
        guard let value = node.string, allowed.contains(value) else {
            throw error(node, "\(context).\(key) must be one of \(allowed.joined(separator: ", ")), not '\(node.string ?? "?")'")
        }
        return value
    }

    /// `choice` for a kind's typed key: the enum's raw values are the allowed words, and the value comes back typed,
    /// so no caller turns the text into the enum again.
    mutating func choice<Value: RawRepresentable & CaseIterable>(_ key: String, _ type: Value.Type) throws -> Value?
    where Value.RawValue == String {
        try choice(key, Value.allCases.map(\.rawValue)).flatMap(Value.init(rawValue:))
    }

    mutating func mapping(_ key: String) throws -> NodeReader? {
        guard let node = node(key) else { return nil }
        return try NodeReader(node, file: file, context: "\(context).\(key)")
    }

    mutating func sequence(_ key: String) throws -> [Node]? {
        guard let node = node(key) else { return nil }
        guard case .sequence(let sequence) = node else { throw error(node, "\(context).\(key) must be a list") }
        return Array(sequence)
    }

    /// Reports every key that was never read (a typo, or a setting that does not exist), each at its place with
    /// the closest known key: into the parse's gathered list when there is one, else thrown together.
    func finish() throws {
        let allowedKeys = Self.allowed[context.components(separatedBy: ".").last.map { $0.components(separatedBy: "[")[0] } ?? ""] ?? []
        let hint = allowedKeys.isEmpty ? "" : "; expected one of: \(allowedKeys.joined(separator: ", "))"
        let unknown = pairs.filter { !used.contains($0.key) }.map { pair in
            let suggestion = KeySuggestion.closest(to: pair.key, among: asked.union(allowedKeys)).map { "; did you mean '\($0)'?" } ?? ""
            return ScenarioError(file: file, line: pair.keyMark?.line ?? 1, column: pair.keyMark?.column ?? 1,
                                 message: "unknown key '\(pair.key)' in \(context)\(hint)\(suggestion)")
        }
        guard var first = unknown.first else { return }
        if let gathered = UnknownKeys.current {
            gathered.add(unknown)
            return
        }
        first.others = Array(unknown.dropFirst())
        throw first
    }

    /// Keys each mapping accepts, for the hint on an unknown key.
    static let allowed: [String: [String]] = [
        "scenario": ["name", "description", "extends", "seed", "store", "writers", "schedule", "faults", "invariants", "expect",
                     "app_model", "lightweight_migration", "incompatible_store", "time_limit", "scheduler", "sidecars", "readers", "cloud",
                     "expect_metrics"],
        "expect_metrics": ["step", "peak_memory", "seconds", "bytes_loaded", "stall_seconds", "commit_p99_seconds", "ratio", "of", "to", "min", "max"],
        "peak_memory": ["min", "max"], "seconds": ["min", "max"], "bytes_loaded": ["min", "max"],
        "stall_seconds": ["min", "max"], "commit_p99_seconds": ["min", "max"],
        "cloud": ["account", "setup_deadline", "container"],
        "lightweight_migration": ["migrate_automatically", "infer_mapping_model"],
        "readers": ["count", "hold", "every", "across_restore", "across_relocate"],
        "store": ["objects", "blob_fraction", "blob_size", "journal_mode", "auto_vacuum", "history", "inheritance", "cloudkit", "from", "fresh"],
        "writers": ["count", "transactions", "rate", "mix", "blob_fraction", "blob_size", "synchronous", "checkpoint",
                    "external_data_grace", "sync_external_data", "across_restore", "after_restore", "across_relocate"],
        "mix": ["insert", "update", "delete", "link"],
        "schedule": ScheduleKinds.allowedKeys,
        "sidecars": ["name", "command", "start", "stop", "grace"],
        "faults": ["mount", "backups_on_volume", "host_sync", "fsync_failure", "rules", "crash"],
        "rules": ["ops", "path", "nth", "after", "probability", "action", "during_step", "actor", "while_sidecar", "while_held"],
        "catalog": ["entries"],
        "versions file": ["package", "versions", "default"],
        "entries": ["id", "title", "sources", "fixed_in", "not_reproduced"],
        "crash": ["after_commits", "at_seconds", "during_step", "delay", "at_page", "at_end", "mode"],
    ]
}

/// Byte sizes written as text: 4096, 64KiB, 2MB, 1.5GiB, 4TB. KB/MB/GB/TB are decimal, KiB/MiB/GiB/TiB and K/M/G
/// binary. The one parser of sizes for scenarios and the CLI (the benchmark's `ByteCount` reads with it too);
/// FaultFS keeps its own small one for `--memory-budget`, since that module depends on nothing of Lifeboat's.
public enum ByteSizeText {
    /// The largest single value (an attachment) a scenario or `generate` may ask for: 256 MiB. The generator and
    /// each writer hold one such value in memory at a time, and SQLite refuses values above 1,000,000,000 bytes
    /// by default (SQLITE_MAX_LENGTH); larger is refused at parse time rather than failing an allocation.
    public static let maximumValueSize = 256 * 1024 * 1024

    /// Bytes, or nil when the text is not a size or the size does not fit in an Int (1e30, inf, nan).
    public static func parse(_ text: String) -> Int? {
        let trimmed = text.trimmingCharacters(in: .whitespaces).uppercased()
        let units: [(String, Double)] = [("KIB", 1024), ("MIB", 1_048_576), ("GIB", 1_073_741_824), ("TIB", 1_099_511_627_776),
                                         ("KB", 1e3), ("MB", 1e6), ("GB", 1e9), ("TB", 1e12),
                                         ("K", 1024), ("M", 1_048_576), ("G", 1_073_741_824), ("B", 1)]
        for (suffix, factor) in units where trimmed.hasSuffix(suffix) {
            guard let number = Double(trimmed.dropLast(suffix.count)), number >= 0, number.isFinite else { return nil }
            let bytes = (number * factor).rounded(.down)
            guard bytes < 9.0e18 else { return nil }
            return Int(bytes)
        }
        guard let number = Int(trimmed), number >= 0 else { return nil }
        return number
    }
}
