import Foundation

/// A restore's points after its swap (issue 39, point 3). The failures users reported sit there: an I/O error in
/// any call after a snapshot swap let one committed row be applied twice (rqlite #2759); a restore that renames the
/// backup into place and then fails to remove the old store's -wal leaves it for the app's next open to replay
/// onto the restored database. The swap is the restore's last call that put the backup's database in place, as
/// the probe's op log shows it: a rename onto the store's database, or (a copy over it, SQLite's own restore and
/// its checkpoint) the last write into it. Every walk's Ns past that call are its points after the swap; the search
/// says how many there are and what they found (`afterSwap` in `deep.json`, the page's "After the swap").
extension DeepSearch {
    /// What the walks of one program found past its swap.
    public struct AfterSwap: Sendable, Codable, Equatable {
        /// The call that put the backup in place: "rename /Library.sqlite.restoring -> /Library.sqlite".
        public var swap: String
        /// The program's calls after it, by kind (the probe's).
        public var calls: [String: Int]
        /// The plan's points after it (the crash right after success included).
        public var planned = 0
        /// Over the walks searched to their end.
        public var tally = Tally()
    }

    /// The points of a walk (or of a whole search) after the swap: run, held, violated, hung.
    public struct Tally: Sendable, Codable, Equatable {
        public var run = 0
        public var held = 0
        public var violated = 0
        public var hung = 0

        static func + (a: Tally, b: Tally) -> Tally {
            Tally(run: a.run + b.run, held: a.held + b.held, violated: a.violated + b.violated, hung: a.hung + b.hung)
        }
    }

    /// The index in `calls` of the swap: the last rename onto `database`, or the last write into it (a copy
    /// over it, SQLite's checkpoint of a restore made through it), whichever comes later; nil when the program
    /// never put anything in place at that path.
    public static func swapIndex(in calls: [Call], database: String) -> Int? {
        calls.lastIndex { call in
            (call.op == .rename && call.path2 == database) || ([.write, .copyFileRange].contains(call.op) && call.path == database)
        }
    }

    /// Marks each of a restore's walks with its Ns after the swap, from the probe's calls in order (`calls`) and
    /// the live store's files (`storeGlob`, "/Library.sqlite*": the database is its path without the star), and
    /// returns the search's entry for it; nil (and no walk marked) when the op log could not be read or shows no
    /// swap.
    public static func markAfterSwap(_ walks: inout [Walk], calls: [Call]?, storeGlob: String) -> AfterSwap? {
        let database = String(storeGlob.dropLast(storeGlob.hasSuffix("*") ? 1 : 0))
        guard let calls, let swap = swapIndex(in: calls, database: database) else { return nil }
        for index in walks.indices { walks[index].afterSwap = afterSwap(of: walks[index], calls: calls, swap: swap) }
        return AfterSwap(swap: describe(calls[swap]), calls: callsAfter(calls, swap: swap), planned: walks.reduce(0) { $0 + ($1.afterSwap?.count ?? 0) })
    }

    /// "rename /Library.sqlite.restoring -> /Library.sqlite", "write /Library.sqlite".
    static func describe(_ call: Call) -> String {
        call.op.rawValue + " " + call.path + (call.path2.map { " -> \($0)" } ?? "")
    }

    /// The Ns of `walk` whose call comes after `calls[swap]` (the walk's own N, counting the calls of its kinds;
    /// only its chosen Ns, for a grouped walk); every N of a crash after success. Nil for an interleaving, or when
    /// the op log's calls of the walk's kinds do not add up to the walk's count (then nothing is claimed).
    public static func afterSwap(of walk: Walk, calls: [Call], swap: Int) -> [Int]? {
        if walk.ops.isEmpty { return [1] }
        guard walk.whileHeld == nil else { return nil }
        var n = 0
        var after: [Int] = []
        for (index, call) in calls.enumerated() where walk.ops.contains(call.op) {
            n += 1
            if index > swap { after.append(n) }
        }
        guard n == (walk.calls ?? walk.count) else { return nil }
        guard let only = walk.only else { return after }
        let chosen = Set(only)
        return after.filter(chosen.contains)
    }

    /// The program's calls after the swap, by kind.
    static func callsAfter(_ calls: [Call], swap: Int) -> [String: Int] {
        calls.dropFirst(swap + 1).reduce(into: [:]) { $0[$1.op.rawValue, default: 0] += 1 }
    }

    /// The rows of a walk after the swap, tallied.
    static func tally(_ rows: [FaultWalk.Row], after: [Int]?) -> Tally? {
        guard let after, !after.isEmpty else { return nil }
        let chosen = Set(after)
        var tally = Tally()
        for row in rows where chosen.contains(row.n) && row.outcome != FaultWalk.notRun {
            tally.run += 1
            switch row.outcome {
            case "held": tally.held += 1
            case "violated": tally.violated += 1
            case FaultWalk.hung: tally.hung += 1
            default: break
            }
        }
        return tally
    }

    /// Each program's after-swap summary with its tally from the walks searched to their end (`searched`): the
    /// one count of a search and of a merge of its shards.
    static func afterSwap(of summary: Summary) -> [String: AfterSwap]? {
        guard var swaps = summary.afterSwap, !swaps.isEmpty else { return summary.afterSwap }
        let programs = Dictionary(summary.walks.map { ($0.folder, $0.program) }, uniquingKeysWith: { first, _ in first })
        var tallies: [String: Tally] = [:]
        for searched in summary.searched ?? [] {
            guard let tally = searched.afterSwap, let program = programs[searched.walk] else { continue }
            tallies[program] = (tallies[program] ?? Tally()) + tally
        }
        for program in Array(swaps.keys) { swaps[program]?.tally = tallies[program] ?? Tally() }
        return swaps
    }

    /// "after the swap (rename /Library.sqlite.restoring -> /Library.sqlite): 23 points (unlink 2, ...), 23 run:
    /// 22 held, 1 violated".
    public static func afterSwapLine(_ program: String, _ swap: AfterSwap) -> String {
        let kinds = swap.calls.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
        let t = swap.tally
        return "\(program) after its swap (\(swap.swap)): \(swap.planned) point(s)" + (kinds.isEmpty ? "" : " over its later calls (\(kinds))")
            + ", \(t.run) run: \(t.held) held" + (t.violated > 0 ? ", \(t.violated) violated" : "") + (t.hung > 0 ? ", \(t.hung) hung" : "")
    }
}
