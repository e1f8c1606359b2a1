import Crypto
import Foundation
import Reporting
import Scenario
import StoreModel

/// Scenarios x seeds: the (scenario, seed) pairs a campaign runs, in a fixed order (seed by seed, each seed
/// over every scenario in the order given, so a time budget that runs out leaves whole seeds, not whole
/// scenarios, unrun), and the fingerprint that tells whether two suite folders belong to one campaign.
public struct Campaign: Sendable {
    /// Bumped when a verdict could change for the same scenario and seed; part of every campaign id, so shards
    /// built by different lifeboat versions are never merged.
    public static let lifeboatVersion = "0.12.0"

    public struct Drill: Sendable {
        public var file: URL
        public var scenario: Scenario
        public init(file: URL, scenario: Scenario) {
            self.file = file
            self.scenario = scenario
        }
    }

    public typealias Pair = SuiteSummary.Pair

    public let drills: [Drill]
    /// nil: every scenario runs once with its own seed.
    public let seeds: SeedList?
    public let pairs: [Pair]
    let byName: [String: Drill]

    public struct DuplicateName: Error, CustomStringConvertible {
        public let name: String
        public let files: [String]
        public var description: String {
            "two scenarios are named \(name) (\(files.joined(separator: ", "))): a campaign tells its runs apart by scenario name"
        }
    }

    public init(drills: [Drill], seeds: SeedList?) throws {
        var byName: [String: Drill] = [:]
        for drill in drills {
            if let other = byName[drill.scenario.name] {
                throw DuplicateName(name: drill.scenario.name, files: [other.file.path, drill.file.path])
            }
            byName[drill.scenario.name] = drill
        }
        self.drills = drills
        self.seeds = seeds
        self.byName = byName
        if let seeds {
            pairs = seeds.seeds.flatMap { seed in drills.map { Pair(scenario: $0.scenario.name, seed: seed) } }
        } else {
            pairs = drills.map { Pair(scenario: $0.scenario.name, seed: $0.scenario.seed) }
        }
    }

    /// The drill of a pair, with the pair's seed set.
    public func drill(for pair: Pair) -> Drill? {
        guard var drill = byName[pair.scenario] else { return nil }
        drill.scenario.seed = pair.seed
        return drill
    }

    /// The pairs shard `shard` runs: every N-th pair of the campaign's order, starting at the K-th, so N shards
    /// cover it exactly once and each gets a share of every seed.
    public func slice(_ shard: Shard?) -> [Pair] {
        RunLoop(shard: shard).slice(pairs)
    }

    /// What summary.json records of the campaign; `id` is a SHA-256 over the version, each scenario's content
    /// fingerprint and the pair list, so it is the same on every machine for the same files and seeds.
    public func info() -> SuiteSummary.CampaignInfo {
        let scenarios = drills.map { drill in
            SuiteSummary.ScenarioRef(name: drill.scenario.name, file: drill.file.path, fingerprint: Self.fingerprint(drill.scenario),
                                     expectation: drill.scenario.expect.description, needsFaultFS: drill.scenario.faults.needsFaultFS,
                                     demonstrates: SuiteSummary.ScenarioRef.firstSentence(drill.scenario.description))
        }
        var text = "lifeboat.campaign/1\nversion \(Self.lifeboatVersion)\n"
        for scenario in scenarios { text += "scenario \(scenario.name) \(scenario.fingerprint)\n" }
        for pair in pairs { text += "pair \(pair.scenario) \(pair.seed)\n" }
        return SuiteSummary.CampaignInfo(id: Self.hex(SHA256.hash(data: Data(text.utf8))), lifeboatVersion: Self.lifeboatVersion,
                                         seeds: seeds?.text ?? "scenario seeds: " + Self.distinctSeeds(pairs), scenarios: scenarios, pairs: pairs)
    }

    /// SHA-256 of the parsed scenario (seed cleared, keys sorted): the same drill whatever its path or layout.
    public static func fingerprint(_ scenario: Scenario) -> String {
        var copy = scenario
        copy.seed = 0
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = (try? encoder.encode(copy)) ?? Data(String(describing: copy).utf8)
        return hex(SHA256.hash(data: data))
    }

    /// The seeds the pairs run, each once, in order of first use: what a campaign without `--seeds` ran.
    static func distinctSeeds(_ pairs: [Pair]) -> String {
        var seen = Set<UInt64>()
        return pairs.map(\.seed).filter { seen.insert($0).inserted }.map(String.init).joined(separator: ", ")
    }

    static func hex(_ digest: SHA256.Digest) -> String { Hex.string(digest) }
}
