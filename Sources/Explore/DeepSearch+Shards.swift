import Foundation
import Reporting
import Runner

/// `try --deep --shard K/N` and its merge. The unit of a shard is one walk of the plan: a walk stops at its first
/// failing N, so its Ns depend on one another and stay together. Every shard runs the probes (they size the plan,
/// and under `turns` they count the same calls in every run: a shard whose probe counted otherwise has another
/// plan, and the merge refuses it), then every N-th walk. `lifeboat report merge` puts the shards' walks back in
/// the plan's order and writes the deep.json and deep.md one unsharded search writes.
extension DeepSearch {
    /// One walk a folder searched to its end: its folder (the plan's key), its runs, the points it covered, its
    /// finding, the points where the program never returned, and the points each (op, answer) of the
    /// input/output table was given at: what the merge adds up.
    public struct Searched: Sendable, Codable, Equatable {
        public var walk: String
        public var runs: Int
        public var covered: Int
        public var finding: Finding?
        public var hung: [Finding]?
        public var faulted: [String: Int]?
        /// The walk's points after a restore's swap that it ran, and how they ended (`DeepSearch+AfterSwap.swift`).
        public var afterSwap: Tally?
    }

    /// The plan of a search: the walks by folder, over what the probes counted and the bases they ran.
    func plan(_ summary: Summary, shard: Shard?) -> ShardPlan {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let walks = summary.walks.map { String(decoding: (try? encoder.encode($0)) ?? Data(), as: UTF8.self) }
        let calls = summary.calls.sorted { $0.key < $1.key }.map { program, counts in
            "calls \(program) " + counts.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: ",")
        }
        let bases = targets.map { "base \($0.program) seed \($0.base.seed) \(Campaign.fingerprint($0.base))" }
        return ShardPlan(kind: "deep", cases: summary.walks.map(\.folder), content: bases + calls + walks, shard: shard)
    }

    public static let summaryFile = "deep.json"

    public static func read(_ folder: URL) throws -> Summary {
        try JSONDecoder().decode(Summary.self, from: Data(contentsOf: folder.appendingPathComponent(summaryFile)))
    }

    /// A merge checked whole and ready to write: the merged summary, what to copy, and the walks' folders whose
    /// pages and repros name paths inside their part.
    public struct PreparedMerge: Sendable {
        public var summary: Summary
        var copies: ShardPlan.Copies
        var walks: [(folder: String, part: URL)]
        var out: URL

        /// Writes the merged search into `out` (made by the caller): the copies, the walks' paths pointed at `out`,
        /// deep.json and deep.md.
        func write() throws {
            try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
            try copies.write(into: out)
            for (folder, part) in walks { try DeepSearch.repoint(folder: out.appendingPathComponent(folder), from: part, to: out) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            try encoder.encode(summary).write(to: out.appendingPathComponent(DeepSearch.summaryFile), options: .atomic)
            try Data(DeepSearch.markdown(summary).utf8).write(to: out.appendingPathComponent("deep.md"), options: .atomic)
        }
    }

    /// Checks the deep searches in `parts` (one seed's `deep-seed<N>` folders of each shard) and prepares their
    /// merge into `out`: the walks' folders (their paths pointed at `out`), one shard's probes, and deep.json and
    /// deep.md as one unsharded search writes them. Nothing is written until `write`.
    public static func prepareMerge(_ parts: [URL], into out: URL) throws -> PreparedMerge {
        let summaries = try parts.map { try read($0) }
        let checked = try zip(parts, summaries).map { part, summary -> ShardPlan.Part in
            guard let plan = summary.plan, let searched = summary.searched else {
                throw ShardPlan.MergeError(message: "\(part.path): its \(summaryFile) has no plan (written by an older lifeboat); search again")
            }
            return ShardPlan.Part(label: part.path, plan: plan, keys: searched.map(\.walk))
        }
        let whole = try ShardPlan.check(checked)
        var byWalk: [String: (part: URL, searched: Searched)] = [:]
        for (part, summary) in zip(parts, summaries) {
            for searched in summary.searched ?? [] { byWalk[searched.walk] = (part, searched) }
        }
        let first = summaries[0]
        let probeRuns = first.runs - (first.searched ?? []).reduce(0) { $0 + $1.runs }
        var merged = first
        merged.plan = whole
        merged.searched = []
        merged.findings = []
        merged.hung = []
        var faulted: [String: [String: Int]] = [:]
        let programs = Dictionary(merged.walks.map { ($0.folder, $0.program.components(separatedBy: "+")[0]) }, uniquingKeysWith: { first, _ in first })
        merged.runs = probeRuns
        merged.covered = 0
        // Shards run side by side: the search took as long as its longest shard.
        merged.seconds = summaries.map(\.seconds).max() ?? first.seconds
        var copies = ShardPlan.Copies()
        var walks: [(folder: String, part: URL)] = []
        for walk in whole.cases {
            guard let (part, found) = byWalk[walk] else { continue }
            try copies.add(walk, from: part)
            walks.append((walk, part))
            var searched = found
            if let repro = found.finding?.repro { searched.finding?.repro = repoint(repro, from: part, to: out) }
            if let original = found.finding?.shrink?.originalRepro { searched.finding?.shrink?.originalRepro = repoint(original, from: part, to: out) }
            merged.searched?.append(searched)
            merged.runs += searched.runs
            merged.covered += searched.covered
            if let finding = searched.finding { merged.findings.append(finding) }
            merged.hung?.append(contentsOf: searched.hung ?? [])
            if let walkFaulted = searched.faulted, let program = programs[walk] {
                faulted[program, default: [:]].merge(walkFaulted, uniquingKeysWith: +)
            }
        }
        merged.rootCauses = rootCauses(of: merged.findings)
        merged.ioCoverage = ioCoverage(of: merged, faulted: faulted)
        merged.afterSwap = afterSwap(of: merged)
        // The probes ran in every shard, alike: the first shard's stand for them.
        for name in try FileManager.default.contentsOfDirectory(atPath: parts[0].path).sorted() where name.hasPrefix("probe-") {
            try copies.add(name, from: parts[0])
        }
        return PreparedMerge(summary: merged, copies: copies, walks: walks, out: out)
    }

    /// A path inside `part` as the same path inside `out`.
    static func repoint(_ path: String, from part: URL, to out: URL) -> String {
        let prefix = part.standardizedFileURL.path + "/"
        return path.hasPrefix(prefix) ? out.standardizedFileURL.path + "/" + path.dropFirst(prefix.count) : path
    }

    /// Points the paths a copied walk's walk.json, pages and repros name inside `part` at `out` (a finding's
    /// repro, each row's report), so the merged folder stands on its own.
    static func repoint(folder: URL, from part: URL, to out: URL) throws {
        let old = part.standardizedFileURL.path + "/", new = out.standardizedFileURL.path + "/"
        for name in try FileManager.default.contentsOfDirectory(atPath: folder.path)
        where [".json", ".md", ".html", ".yaml"].contains(where: name.hasSuffix) {
            let file = folder.appendingPathComponent(name)
            let text = try String(contentsOf: file, encoding: .utf8)
            if text.contains(old) { try Data(text.replacingOccurrences(of: old, with: new).utf8).write(to: file, options: .atomic) }
        }
    }

    /// `try --deep` folders (`try-<id>/` with a `deep-seed<N>/` per seed) merged seed by seed into `out`.
    public static func mergeTry(_ parts: [URL], into out: URL) throws -> [(seed: String, summary: Summary)] {
        func seeds(_ folder: URL) throws -> [String] {
            try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasPrefix("deep-seed") }.sorted()
        }
        let wanted = try seeds(parts[0])
        for part in parts.dropFirst() where try seeds(part) != wanted {
            throw ShardPlan.MergeError(message: "\(part.path) searched \(try seeds(part).joined(separator: ", ")), \(parts[0].path) searched \(wanted.joined(separator: ", ")): not shards of one search")
        }
        // Every seed's parts checked, and every file to copy found, before anything is written.
        let prepared = try wanted.map { seed in try prepareMerge(parts.map { $0.appendingPathComponent(seed) }, into: out.appendingPathComponent(seed)) }
        try ShardPlan.prepare(out, parts: parts)
        for merge in prepared { try merge.write() }
        return zip(wanted, prepared).map { ($0, $1.summary) }
    }
}

extension DeepSearch.Finding {
    /// A walk's failing row as a finding: the walk and the program's call are the search's own, the rest is the
    /// row's (`FaultWalk.row`, the one builder of a walk's row).
    init(walk: String, operation: String, row: FaultWalk.Row) {
        self.init(walk: walk, n: row.n, operation: operation, violated: row.violated, evidence: row.evidence, cause: row.cause, repro: row.repro)
    }
}
