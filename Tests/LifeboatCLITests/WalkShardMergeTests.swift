import Explore
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat walk --shard K/N` and `lifeboat report merge`: each shard walks its Ns until its own first N that fires
/// nothing; merged, the rows past the first such N of all are dropped and every N up to it is required, so the
/// pages are those of one unsharded walk. A writer's three commits under `turns`, the walk over the -wal's fsyncs.
@Suite(.serialized, .ownThread) struct WalkShardMergeTests {
    @Test func aWalkInTwoShardsMergesIntoTheWalkOfOneRun() async throws {
        let scratch = try Scratch("walk-shards")
        let file = scratch.path("s.yaml")
        try """
        name: s
        scheduler: turns
        store: {objects: 10, blob_fraction: 0}
        writers: {count: 1, transactions: 3, blob_fraction: 0, checkpoint: none}
        faults: {mount: true}
        invariants: [integrity]
        """.write(to: file, atomically: true, encoding: .utf8)
        func walk(_ label: String, _ extra: [String]) async -> (URL, Int32) {
            let directory = scratch.path("walk-\(label)")
            let code = await LifeboatMain.run(["walk", file.path, "--ops", "fsync", "--path", "*.sqlite-wal", "--directory", directory.path,
                                               "--reports", scratch.path("r").path, "--scratch", scratch.path("s-\(label)").path] + extra)
            return (directory, code)
        }
        let (whole, wholeCode) = await walk("whole", [])
        let (first, firstCode) = await walk("1", ["--shard", "1/2"])
        let (second, secondCode) = await walk("2", ["--shard", "2/2"])
        #expect(wholeCode == 0 && firstCode == 0 && secondCode == 0)
        let merged = scratch.path("walk-merged")
        #expect(await LifeboatMain.run(["report", "merge", first.path, second.path, "--out", merged.path]) == 0)
        let roots = [whole, first, second, merged] + ["whole", "1", "2"].map { scratch.path("s-\($0)") }
        // The pages up to the coverage table, character for character; the table's first column of counts (every
        // call the runs made of a kind, the SQLite library's -shm writes among them) differs between two identical
        // runs, so the coverage is compared below by what the walk's rule matched and fired.
        for (page, heading) in [("walk.md", "## Fault coverage"), ("walk.html", "<h2>Fault coverage</h2>")] {
            func head(_ folder: URL) throws -> String {
                let text = try String(contentsOf: folder.appendingPathComponent(page), encoding: .utf8)
                return String(text[..<(text.range(of: heading)?.lowerBound ?? text.endIndex)])
            }
            let difference = PageComparison.firstDifference(try head(whole), try head(merged), roots: roots)
            #expect(difference == nil, "\(page) \(difference ?? "")")
        }
        let state = try #require(try FaultWalk.load(merged))
        let one = try #require(try FaultWalk.load(whole))
        let shards = try [first, second].map { try #require(try FaultWalk.load($0)) }
        func ruleCounts(_ state: FaultWalk.State) -> [String] {
            (state.coverage?.rows ?? []).map { "\($0.op) \($0.fileClass) matched \($0.matched) fired \($0.fired)" }.sorted()
        }
        #expect(ruleCounts(state) == ruleCounts(one) && !ruleCounts(one).isEmpty)
        #expect(state.rows.map(\.n) == one.rows.map(\.n) && state.rows.map(\.n) == Array(1...state.rows.count))
        #expect(state.rows.last?.fired == false && state.rows.dropLast().allSatisfy(\.fired))
        // Each shard walked its own Ns to its own first N that fires nothing, so together they ran past the
        // whole walk's end: the merge dropped those rows.
        #expect(shards.map { $0.rows.map(\.n) } == [1, 2].map { k in Array(stride(from: k, through: shards[k - 1].rows.last?.n ?? 0, by: 2)) })
        #expect(shards.reduce(0) { $0 + $1.rows.count } > state.rows.count)
        #expect(state.rows.allSatisfy { FileManager.default.fileExists(atPath: $0.report) && $0.report.hasPrefix(merged.path) })

        // One shard alone (Ns 2 and 4 missing), or a shard twice, is refused with nothing written.
        for (label, folders) in [("alone", [first]), ("twice", [first, first])] {
            let out = scratch.path("refused-\(label)")
            #expect(await LifeboatMain.run(["report", "merge"] + folders.map(\.path) + ["--out", out.path]) == 2, "\(label)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("walk.json").path), "\(label)")
        }
    }
}
