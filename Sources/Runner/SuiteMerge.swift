import Foundation
import Reporting

/// `lifeboat report merge DIR... --out DIR`: the shard folders of one campaign become one suite folder (their
/// run folders copied under `runs/`, one summary, one index.html, one junit.xml). Everything is checked before
/// anything is written: parts of different campaigns, or parts that miss or repeat a pair, are refused.
public enum SuiteMerge {
    public static func merge(_ parts: [URL], into out: URL) throws -> SuiteSummary {
        guard !parts.isEmpty else { throw RunError.environment(SuiteSummary.MergeError.noParts.description) }
        let standardOut = out.standardizedFileURL.path
        for part in parts where part.standardizedFileURL.path == standardOut {
            throw RunError.environment("--out \(out.path) is one of the folders to merge; give a new folder")
        }
        let summaries = try parts.map { (label: $0.path, summary: try SuiteFolder.readSummary($0)) }
        let merged: SuiteSummary
        do { merged = try SuiteSummary.merge(summaries, suiteID: out.lastPathComponent) } catch let error as SuiteSummary.MergeError {
            throw RunError.environment(error.description)
        }
        // Every run folder an entry names must exist in its part, and no two parts may bring the same one.
        var copies: [(from: URL, to: String)] = []
        var targets = Set<String>()
        for (part, item) in zip(parts, summaries) {
            for entry in item.summary.entries {
                for ref in (entry.run.map { [$0] } ?? []) + entry.reruns {
                    let from = part.appendingPathComponent(ref.path)
                    guard FileManager.default.fileExists(atPath: from.path) else {
                        throw RunError.environment("\(part.path): the run folder \(ref.path) of \(entry.pair) is missing (was the artifact copied whole?)")
                    }
                    guard targets.insert(ref.path).inserted else {
                        throw RunError.environment("two folders hold a run folder named \(ref.path); they are copies of one shard")
                    }
                    copies.append((from, ref.path))
                }
            }
        }
        if FileManager.default.fileExists(atPath: out.path),
           let contents = try? FileManager.default.contentsOfDirectory(atPath: out.path), !contents.isEmpty {
            throw RunError.environment("--out \(out.path) exists and is not empty; give a new folder")
        }
        let folder = try SuiteFolder(url: out)
        for copy in copies {
            let to = out.appendingPathComponent(copy.to)
            try FileManager.default.createDirectory(at: to.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: copy.from, to: to)
        }
        try folder.write(merged)
        return merged
    }
}
