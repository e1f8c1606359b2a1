import Crypto
import Foundation
import Reporting
import StoreModel

/// What the folder of a many-runs command records so that `lifeboat report merge` can tell that its parts are
/// shards of one whole and cover it exactly once: the whole's cases, by key and in order, a fingerprint over them
/// and what they run (never a path or a time, so the same command gives the same id on every machine), and which
/// shard the folder is. An unsharded folder records it too, so a merged folder is the same as an unsharded one.
///
/// `run --seeds` checks its pairs the same way in `SuiteSummary.merge` (its summary.json predates this).
public struct ShardPlan: Sendable, Codable, Equatable {
    /// SHA-256 over `kind`, the content each case runs and the case keys.
    public var id: String
    /// Every case of the whole, in the order an unsharded run makes its rows.
    public var cases: [String]
    /// The shard this folder ran; nil for the whole (unsharded, or merged).
    public var shard: SuiteSummary.ShardInfo?

    /// `content` is what makes two wholes differ beyond their keys (scenario fingerprints, settings), one line each.
    public init(kind: String, cases: [String], content: [String], shard: Shard?) {
        var text = "lifeboat.shard-plan/1\nkind \(kind)\nversion \(Campaign.lifeboatVersion)\n"
        for line in content { text += "content \(line)\n" }
        for key in cases { text += "case \(key)\n" }
        id = Hex.string(SHA256.hash(data: Data(text.utf8)))
        self.cases = cases
        self.shard = shard?.info
    }

    public struct MergeError: Error, CustomStringConvertible, Equatable {
        public var message: String
        public var description: String { message }
        public init(message: String) { self.message = message }
    }

    /// One part to merge: a label for messages (its folder), its plan and the keys of the rows it holds.
    public struct Part: Sendable {
        public var label: String
        public var plan: ShardPlan
        public var keys: [String]
        public init(label: String, plan: ShardPlan, keys: [String]) {
            self.label = label
            self.plan = plan
            self.keys = keys
        }
    }

    /// Checks that `parts` are shards of one whole and hold every one of its cases exactly once: the same plan id,
    /// one shard count, no shard twice, no case held twice, none foreign, none missing. Returns the whole's plan
    /// (shard nil). Every problem is named, with the cases, so nothing half-merged is ever written.
    public static func check(_ parts: [Part]) throws -> ShardPlan {
        guard let first = parts.first else { throw MergeError(message: "nothing to merge: give the shard folders") }
        for part in parts.dropFirst() where part.plan.id != first.plan.id {
            throw MergeError(message: "the folders are not shards of one run: \(first.label) is \(first.plan.id.prefix(16)), \(part.label) is \(part.plan.id.prefix(16))"
                             + (part.plan.cases == first.plan.cases ? " (the same cases, other content: another scenario, program or lifeboat version)" : " (other cases)"))
        }
        let shards = parts.compactMap { part in part.plan.shard.map { (part.label, $0) } }
        if let (label, shard) = shards.first {
            if let other = shards.first(where: { $0.1.count != shard.count }) {
                throw MergeError(message: "the shards were cut differently: \(label) is shard \(shard.index)/\(shard.count), \(other.0) is \(other.1.index)/\(other.1.count)")
            }
            var seen: [Int: String] = [:]
            for (label, shard) in shards {
                if let earlier = seen[shard.index] {
                    throw MergeError(message: "the same shard was given twice: \(earlier) and \(label) are both shard \(shard.index)/\(shard.count)")
                }
                seen[shard.index] = label
            }
        }
        let wanted = Set(first.plan.cases)
        var held: [String: String] = [:]
        var duplicated: [String] = [], foreign: [String] = []
        for part in parts {
            for key in part.keys {
                if !wanted.contains(key) { foreign.append("\(key) (\(part.label))"); continue }
                if let other = held[key] { duplicated.append("\(key) (\(other) and \(part.label))"); continue }
                held[key] = part.label
            }
        }
        func list(_ keys: [String]) -> String { keys.prefix(8).joined(separator: ", ") + (keys.count > 8 ? ", ..." : "") }
        if !duplicated.isEmpty { throw MergeError(message: "\(duplicated.count) case(s) appear in more than one folder: \(list(duplicated))") }
        if !foreign.isEmpty { throw MergeError(message: "\(foreign.count) case(s) are not in the plan: \(list(foreign))") }
        let missing = first.plan.cases.filter { held[$0] == nil }
        if !missing.isEmpty { throw MergeError(message: "\(missing.count) case(s) are in no folder (a shard is missing, or was cut short?): \(list(missing))") }
        var whole = first.plan
        whole.shard = nil
        return whole
    }

    /// The files a merge copies from its parts (run folders, repros, a walk's folder), each checked as it is
    /// added, so that a part missing one, or two parts bringing the same name, is refused before anything is
    /// written; `write` copies them once the merged folder is made.
    public struct Copies: Sendable {
        private var items: [(from: URL, relative: String)] = []
        private var taken = Set<String>()
        public init() {}

        public mutating func add(_ relative: String, from part: URL) throws {
            let from = part.appendingPathComponent(relative)
            guard FileManager.default.fileExists(atPath: from.path) else {
                throw MergeError(message: "\(part.path): \(relative) is missing (was the folder copied whole?)")
            }
            guard taken.insert(relative).inserted else {
                throw MergeError(message: "two folders hold \(relative); they are copies of one shard")
            }
            items.append((from, relative))
        }

        public func write(into out: URL) throws {
            for item in items {
                let to = out.appendingPathComponent(item.relative)
                try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
                try FileManager.default.copyItem(at: item.from, to: to)
            }
        }
    }

    /// `out` is absent or empty and is none of `parts`; created.
    public static func prepare(_ out: URL, parts: [URL]) throws {
        let standardOut = out.standardizedFileURL.path
        for part in parts where part.standardizedFileURL.path == standardOut {
            throw MergeError(message: "--out \(out.path) is one of the folders to merge; give a new folder")
        }
        if let contents = try? FileManager.default.contentsOfDirectory(atPath: out.path), !contents.isEmpty {
            throw MergeError(message: "--out \(out.path) exists and is not empty; give a new folder")
        }
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
    }
}
