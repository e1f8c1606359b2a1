import Foundation

/// Merging the summaries of a campaign's shards into the summary of the whole campaign. Refuses parts of
/// different campaigns and parts that do not cover the campaign's pairs exactly once, naming the pairs.
extension SuiteSummary {
    public enum MergeError: Error, CustomStringConvertible, Equatable {
        case noParts
        case schema(part: String, found: String)
        case differentCampaigns(String)
        case differentShardCounts(String)
        case sameShardTwice(String)
        case duplicatedPairs([Pair])
        case missingPairs([Pair])
        case foreignPairs([Pair])

        public var description: String {
            switch self {
            case .noParts: return "nothing to merge: give the shard folders"
            case .schema(let part, let found): return "\(part): summary.json has schema \(found), this lifeboat reads \(SuiteSummary.schemaVersion)"
            case .differentCampaigns(let detail): return "the folders are not shards of one campaign: \(detail)"
            case .differentShardCounts(let detail): return "the shards were cut differently: \(detail)"
            case .sameShardTwice(let detail): return "the same shard was given twice: \(detail)"
            case .duplicatedPairs(let pairs): return "\(pairs.count) pair(s) appear in more than one folder: \(Self.list(pairs))"
            case .missingPairs(let pairs): return "\(pairs.count) pair(s) of the campaign are in no folder (a shard is missing?): \(Self.list(pairs))"
            case .foreignPairs(let pairs): return "\(pairs.count) pair(s) are not in the campaign: \(Self.list(pairs))"
            }
        }

        static func list(_ pairs: [Pair]) -> String {
            pairs.prefix(8).map(\.description).joined(separator: ", ") + (pairs.count > 8 ? ", ..." : "")
        }
    }

    /// The whole campaign from its parts (`label` names a part in messages, e.g. its folder).
    public static func merge(_ parts: [(label: String, summary: SuiteSummary)], suiteID: String) throws -> SuiteSummary {
        guard let first = parts.first else { throw MergeError.noParts }
        for part in parts where part.summary.schema != schemaVersion {
            throw MergeError.schema(part: part.label, found: part.summary.schema)
        }
        for part in parts.dropFirst() where part.summary.campaign.id != first.summary.campaign.id {
            let a = first.summary.campaign, b = part.summary.campaign
            var why: [String] = []
            if a.lifeboatVersion != b.lifeboatVersion { why.append("lifeboat \(a.lifeboatVersion) vs \(b.lifeboatVersion)") }
            if a.scenarios.map(\.name) != b.scenarios.map(\.name) { why.append("scenarios differ") } else if a.scenarios != b.scenarios { why.append("a scenario's content differs") }
            if a.seeds != b.seeds { why.append("seeds \(a.seeds) vs \(b.seeds)") }
            throw MergeError.differentCampaigns("\(first.label) is campaign \(a.id.prefix(16)), \(part.label) is \(b.id.prefix(16))" + (why.isEmpty ? "" : " (\(why.joined(separator: "; ")))"))
        }
        let shards = parts.compactMap { part in part.summary.shard.map { (part.label, $0) } }
        if let (label, shard) = shards.first {
            if let other = shards.first(where: { $0.1.count != shard.count }) {
                throw MergeError.differentShardCounts("\(label) is shard \(shard.index)/\(shard.count), \(other.0) is \(other.1.index)/\(other.1.count)")
            }
            var seen: [Int: String] = [:]
            for (label, shard) in shards {
                if let earlier = seen[shard.index] { throw MergeError.sameShardTwice("\(earlier) and \(label) are both shard \(shard.index)/\(shard.count)") }
                seen[shard.index] = label
            }
        }
        let campaign = first.summary.campaign
        let order = Dictionary(campaign.pairs.enumerated().map { ($0.element, $0.offset) }, uniquingKeysWith: { a, _ in a })
        var byPair: [Pair: SuiteEntry] = [:]
        var duplicated: [Pair] = [], foreign: [Pair] = []
        for part in parts {
            for entry in part.summary.entries {
                if order[entry.pair] == nil { foreign.append(entry.pair); continue }
                if byPair[entry.pair] != nil { duplicated.append(entry.pair); continue }
                byPair[entry.pair] = entry
            }
        }
        if !duplicated.isEmpty { throw MergeError.duplicatedPairs(duplicated.sorted()) }
        if !foreign.isEmpty { throw MergeError.foreignPairs(foreign.sorted()) }
        let missing = campaign.pairs.filter { byPair[$0] == nil }
        if !missing.isEmpty { throw MergeError.missingPairs(missing) }
        let unavailable = parts.first { !$0.summary.fuse.available }?.summary.fuse
        var merged = SuiteSummary(
            suiteID: suiteID, campaign: campaign, shard: nil,
            startedAt: parts.map(\.summary.startedAt).min() ?? first.summary.startedAt,
            // Shards run side by side: the campaign took as long as its longest shard.
            seconds: parts.map(\.summary.seconds).max() ?? 0,
            fuse: unavailable ?? first.summary.fuse, options: first.summary.options,
            entries: campaign.pairs.compactMap { byPair[$0] })
        merged.mergedFrom = parts.map(\.summary.suiteID)
        // A shard cut short makes the whole campaign cut short.
        merged.interruption = parts.compactMap { part in part.summary.interruption.map { "\(part.label): \($0)" } }.first
        return merged.withTallies()
    }
}
