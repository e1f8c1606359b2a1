import Explore
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Testing

/// `lifeboat try --deep --shard K/N` and `lifeboat report merge`: a deep search cut in two shards (each runs the
/// probes, then every other walk of the plan) and merged gives the deep.json and deep.md one unsharded search
/// writes. The program copies the database file and then reports failure, as a backup that cannot write its
/// manifest: few calls, so the whole search is a couple of dozen runs, and it is caught wherever failing is not the
/// right answer to a fault (the interleavings, the crash the moment it ends), with the same evidence in every run.
/// (A program caught for what it copied by that crash, a run under the free scheduler, is caught with evidence that
/// counts what the writer had committed when the backup began, a number that differs between two identical runs,
/// sharded or not: a `cp` that exits 0 says "20 were acknowledged" in one run and "21" in the next. A careful
/// program that holds at every point compared equal too, over 53 points, in a test four times as long.)
@Suite(.serialized, .ownThread) struct TryDeepShardMergeTests {
    static let script = """
        cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"
        echo "cannot write the manifest" >&2
        exit 1
        """

    @Test func aDeepSearchInTwoShardsMergesIntoTheSearchOfOneRun() async throws {
        let scratch = try Scratch("deep-shards")
        let program = scratch.path("backup.sh")
        try Self.script.write(to: program, atomically: true, encoding: .utf8)
        func search(_ label: String, _ extra: [String]) async throws -> (URL, Int32) {
            let reports = scratch.path("reports-\(label)")
            let code = await LifeboatMain.run(["try", "--deep", "--backup", "sh \(program.path)", "--reports", reports.path,
                                               "--scratch", scratch.path("scratch-\(label)").path] + extra)
            return (reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path)), code)
        }
        let (whole, wholeCode) = try await search("whole", [])
        #expect(wholeCode == 1, "caught")
        let (first, _) = try await search("1", ["--shard", "1/2"])
        let (second, _) = try await search("2", ["--shard", "2/2"])
        // Named as a try folder is (its name is the merged search's id), so the id is all that differs.
        let merged = scratch.path("reports-merged/try-20260101-000000-abcdef")
        let mergeCode = await LifeboatMain.run(["report", "merge", first.path, second.path, "--out", merged.path])
        #expect(mergeCode == wholeCode, "the merged search exits as the whole one")

        let roots = [whole, first, second, merged] + ["whole", "1", "2"].map { scratch.path("scratch-\($0)") }
        let differences = try PageComparison.differences(whole.appendingPathComponent("deep-seed1"), merged.appendingPathComponent("deep-seed1"),
                                                         files: ["deep.json", "deep.md"], roots: roots)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")

        // Every walk of the plan once, the two shards' walks apart, in the plan's order.
        let summary = try DeepSearch.read(merged.appendingPathComponent("deep-seed1"))
        let plan = try #require(summary.plan)
        let parts = try [first, second].map { try DeepSearch.read($0.appendingPathComponent("deep-seed1")) }
        let walks = parts.map { ($0.searched ?? []).map(\.walk) }
        #expect(plan.cases.count == summary.walks.count && plan.cases.count > 2)
        #expect(!walks[0].isEmpty && !walks[1].isEmpty && Set(walks[0]).isDisjoint(with: Set(walks[1])))
        #expect((summary.searched ?? []).map(\.walk) == plan.cases)
        #expect(summary.covered == summary.total, "the whole plan was searched")
        // Each finding's repro lies in the merged folder.
        for repro in summary.findings.compactMap(\.repro) {
            #expect(repro.hasPrefix(merged.path) && FileManager.default.fileExists(atPath: repro), "\(repro)")
        }
        // The comparison sees a walk lost or searched twice.
        let page = try String(contentsOf: merged.appendingPathComponent("deep-seed1/deep.md"), encoding: .utf8)
        if let finding = summary.findings.first {
            var doubled = summary
            doubled.findings.append(finding)
            #expect(PageComparison.firstDifference(page, DeepSearch.markdown(doubled), roots: roots) != nil)
        }
        var lost = summary
        lost.runs -= 1
        #expect(PageComparison.firstDifference(page, DeepSearch.markdown(lost), roots: roots) != nil)

        // One shard alone, or a shard twice, is refused with nothing written.
        for (label, folders) in [("alone", [first]), ("twice", [second, second])] {
            let out = scratch.path("refused-\(label)")
            #expect(await LifeboatMain.run(["report", "merge"] + folders.map(\.path) + ["--out", out.path]) == 2, "\(label)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("deep-seed1/deep.json").path), "\(label)")
        }
    }
}
