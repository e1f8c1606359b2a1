import Foundation
import Reporting

/// `lifeboat report merge DIR... --out DIR`: the shard folders of one campaign become one suite folder (their
/// run folders copied under `runs/`, one summary, one index.html, one junit.xml). Everything is checked before
/// anything is written: parts of different campaigns, or parts that miss or repeat a pair, are refused. The run
/// folders are copied as every merge copies (`ShardPlan.Copies`).
public enum SuiteMerge {
    public static func merge(_ parts: [URL], into out: URL) throws -> SuiteSummary {
        guard !parts.isEmpty else { throw RunError.environment(SuiteSummary.MergeError.noParts.description) }
        if parts.contains(where: { $0.standardizedFileURL.path == out.standardizedFileURL.path }) {
            throw RunError.environment("--out \(out.path) is one of the folders to merge; give a new folder")
        }
        let summaries = try parts.map { (label: $0.path, summary: try SuiteFolder.readSummary($0)) }
        let merged: SuiteSummary
        do { merged = try SuiteSummary.merge(summaries, suiteID: out.lastPathComponent) } catch let error as SuiteSummary.MergeError {
            throw RunError.environment(error.description)
        }
        // Every run folder an entry names must exist in its part, and no two parts may bring the same one.
        var copies = ShardPlan.Copies()
        do {
            for (part, item) in zip(parts, summaries) {
                for entry in item.summary.entries {
                    for ref in (entry.run.map { [$0] } ?? []) + entry.reruns { try copies.add(ref.path, from: part) }
                }
            }
            try ShardPlan.prepare(out, parts: parts)
        } catch let error as ShardPlan.MergeError {
            throw RunError.environment(error.message)
        }
        let folder = try SuiteFolder(url: out)
        try copies.write(into: out)
        try folder.write(merged)
        return merged
    }
}
