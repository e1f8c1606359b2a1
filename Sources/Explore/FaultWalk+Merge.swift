import Checks
import Foundation
import Reporting
import Runner

/// `lifeboat report merge` of `walk --shard K/N` folders. A walk has no case list fixed in advance (it goes until a
/// run fires nothing), so its shards are checked by what they are: one walk (the same configuration but for the
/// shard), every shard 1..N once, each finished. Shard K ran N = K, K+N, ... until its own stopping point; one
/// unsharded walk stops at the first of them (the first N that fired nothing, or failed with `--stop-at-failure`),
/// so the merge keeps the rows up to that N, as `FaultWalk.run` drops the rows run together past it at `--jobs`,
/// and requires every N up to it: the result is the walk.json, walk.md and walk.html of one unsharded walk.
extension FaultWalk {
    public static func merge(_ parts: [URL], into out: URL) throws -> State {
        let states = try parts.map { part -> State in
            guard let state = try load(part) else { throw ShardPlan.MergeError(message: "\(part.path): no \(stateFile)") }
            return state
        }
        let first = states[0]
        func whole(_ config: Config) -> Config {
            var config = config
            (config.shard, config.shards) = (1, 1)
            return config
        }
        var seen: [Int: String] = [:]
        for (part, state) in zip(parts, states) {
            guard whole(state.config) == whole(first.config), state.scenario == first.scenario else {
                throw ShardPlan.MergeError(message: "the folders are not shards of one walk: \(parts[0].path) and \(part.path) walk other settings")
            }
            guard state.config.shards == first.config.shards else {
                throw ShardPlan.MergeError(message: "the shards were cut differently: \(parts[0].path) is shard \(first.config.shard)/\(first.config.shards), \(part.path) is \(state.config.shard)/\(state.config.shards)")
            }
            if let earlier = seen[state.config.shard] {
                throw ShardPlan.MergeError(message: "the same shard was given twice: \(earlier) and \(part.path) are both shard \(state.config.shard)/\(state.config.shards)")
            }
            seen[state.config.shard] = part.path
            guard state.finished != nil else {
                throw ShardPlan.MergeError(message: "\(part.path): shard \(state.config.shard)/\(state.config.shards) is not finished (rerun it with --directory \(part.path))")
            }
        }
        let missingShards = (1...first.config.shards).filter { seen[$0] == nil }
        if !missingShards.isEmpty {
            throw ShardPlan.MergeError(message: "shard(s) \(missingShards.map { "\($0)/\(first.config.shards)" }.joined(separator: ", ")) of the walk are in no folder")
        }
        let config = whole(first.config)
        var rows: [(part: URL, row: Row)] = []
        for (part, state) in zip(parts, states) {
            for row in state.rows { rows.append((part, row)) }
        }
        rows.sort { $0.row.n < $1.row.n }
        // Where one walk would have stopped: the first N that fired nothing, or failed when asked to stop there.
        let stop: Row? = rows.first { item in !item.row.fired || (config.stopAtFailure && item.row.outcome == "violated") }?.row
        if let stop { rows.removeAll { $0.row.n > stop.n } }
        let last: Int = stop?.n ?? config.max ?? config.only?.last ?? 0
        let wanted: [Int] = Array(config.indices().prefix { $0 <= last })
        let have: [Int] = rows.map { $0.row.n }
        if have != wanted {
            let missing = wanted.filter { !have.contains($0) }
            throw ShardPlan.MergeError(message: "the walk's N(s) \(missing.prefix(8).map(String.init).joined(separator: ", ")) are in no folder"
                                       + (Set(have).count != have.count ? ", and some N is in two" : ""))
        }
        var copies = ShardPlan.Copies()
        var repros: [(file: URL, old: String, new: String)] = []
        var state = State(scenario: first.scenario, config: config)
        for (part, row) in rows {
            var row = row
            let report = DeepSearch.repoint(row.report, from: part, to: out)
            try copies.add(String(report.dropFirst(out.standardizedFileURL.path.count + 1)), from: part)
            row.report = report
            if let repro = row.repro {
                let moved = DeepSearch.repoint(repro, from: part, to: out)
                let name = URL(fileURLWithPath: repro).lastPathComponent
                try copies.add(name, from: part)
                repros.append((out.appendingPathComponent(name), repro, moved))
                row.repro = moved
            }
            state.rows.append(row)
        }
        // Everything was checked: now the folder is made and written, each repro naming its new place.
        try ShardPlan.prepare(out, parts: parts)
        try copies.write(into: out)
        for repro in repros {
            let text = try String(contentsOf: repro.file, encoding: .utf8)
            try Data(text.replacingOccurrences(of: repro.old, with: repro.new).utf8).write(to: repro.file, options: .atomic)
        }
        state.coverage = RunCoverage.merged(state.rows.compactMap { $0.coverage })
        // Shards run side by side: the walk took as long as its longest shard.
        state.seconds = states.map { $0.seconds }.max() ?? 0
        if let stop {
            state.finished = stop.fired ? "stopped at the first failing N (--stop-at-failure)"
                : "run N=\(stop.n) completed with no fault fired: every matching operation was walked"
        } else if let only = config.only {
            state.finished = "every chosen N was walked (\(only.count))"
        } else {
            state.finished = "reached --max \(config.max ?? 0)"
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(state).write(to: out.appendingPathComponent(stateFile), options: .atomic)
        try FaultWalkReport.write(state, to: out)
        return state
    }
}
