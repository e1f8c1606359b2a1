import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Runner
import Testing

/// `lifeboat run --seeds/--shard/--time-budget/--repeat`, `lifeboat report merge` and the no-FUSE skip path,
/// on cheap drills in `turns` mode (a run takes about a second).
@Suite struct CampaignCommandTests {
    /// A migrate with a reused destination: duplicates on every seed (a pitfall drill that shows its pitfall).
    static let duplicates = """
        name: camp-duplicates
        scheduler: turns
        store: {objects: 40, blob_fraction: 0}
        writers: {count: 2, transactions: 15, blob_fraction: 0}
        schedule:
          - {backup: migrate, after_commits: 10, destination: reuse, times: 2, every_commits: 5}
        invariants: [no-duplicates, integrity]
        expect: violation no-duplicates
        """
    static let replace = """
        name: camp-replace
        scheduler: turns
        store: {objects: 40, blob_fraction: 0.2, blob_size: 20KiB}
        writers: {count: 2, transactions: 15, blob_fraction: 0}
        schedule:
          - {backup: replace, after_commits: 10}
        expect: pass
        """
    /// Needs FaultFS (the store on a FUSE mount).
    static let mounted = """
        name: camp-mounted
        store: {objects: 40, blob_fraction: 0}
        writers: {count: 1, transactions: 10, blob_fraction: 0}
        faults: {mount: true}
        schedule:
          - {backup: replace, after_commits: 5}
        expect: pass
        """

    static func write(_ scratch: Scratch, _ files: [String: String]) throws -> [String] {
        try files.sorted { $0.key < $1.key }.map { name, text in
            let url = scratch.path(name)
            try text.write(to: url, atomically: true, encoding: .utf8)
            return url.path
        }
    }

    static func suite(_ reports: URL) throws -> (URL, SuiteSummary) {
        let folder = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        return (folder, try SuiteFolder.readSummary(folder))
    }

    /// What a campaign found, pair by pair: whether the run showed its expectation, and each invariant's status.
    static func verdicts(_ summary: SuiteSummary) -> [SuiteSummary.Pair: String] {
        Dictionary(uniqueKeysWithValues: summary.entries.map { entry in
            (entry.pair, "\(entry.status.rawValue) \(entry.expectationMet.map(String.init) ?? "-") " + entry.verdicts.map { "\($0.invariant)=\($0.status.rawValue)" }.joined(separator: ","))
        })
    }

    @Test func threeShardsMergedEqualTheUnshardedCampaign() async throws {
        let scratch = try Scratch("cli-campaign")
        let files = try Self.write(scratch, ["a.yaml": Self.duplicates, "b.yaml": Self.replace])
        let common = files + ["--seeds", "1-3", "--scratch", scratch.path("s").path]
        #expect(await LifeboatMain.run(["run"] + common + ["--reports", scratch.path("whole").path]) == 0)
        let (wholeFolder, whole) = try Self.suite(scratch.path("whole"))
        #expect(whole.schema == "lifeboat.suite/1" && whole.entries.count == 6 && whole.outcome.code == 0)
        #expect(whole.entries.allSatisfy { $0.status == .ran && $0.expectationMet == true })
        for entry in whole.entries {
            let run = try #require(entry.run)
            #expect(FileManager.default.fileExists(atPath: wholeFolder.appendingPathComponent(run.path + "/report.html").path))
        }
        let junit = try String(contentsOf: wholeFolder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("no-duplicates [seed 3]") && junit.contains("failures=\"0\""))

        var shards: [String] = []
        for k in 1...3 {
            let reports = scratch.path("shard\(k)")
            #expect(await LifeboatMain.run(["run"] + common + ["--shard", "\(k)/3", "--reports", reports.path]) == 0)
            let (folder, summary) = try Self.suite(reports)
            #expect(summary.shard?.index == k && summary.entries.count == 2 && summary.campaign.id == whole.campaign.id)
            shards.append(folder.path)
        }
        let merged = scratch.path("merged")
        #expect(await LifeboatMain.run(["report", "merge"] + shards + ["--out", merged.path, "--junit", scratch.path("merged.xml").path]) == 0)
        let mergedSummary = try SuiteFolder.readSummary(merged)
        #expect(mergedSummary.campaign.id == whole.campaign.id && mergedSummary.shard == nil && mergedSummary.mergedFrom.count == 3)
        #expect(mergedSummary.entries.map(\.pair) == whole.entries.map(\.pair), "the same pairs in the campaign's order")
        #expect(Self.verdicts(mergedSummary) == Self.verdicts(whole), "the same verdicts pair by pair")
        for entry in mergedSummary.entries {
            let run = try #require(entry.run)
            #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent(run.path + "/repro.yaml").path))
        }
        #expect(FileManager.default.fileExists(atPath: scratch.path("merged.xml").path))
        #expect(try String(contentsOf: merged.appendingPathComponent("index.html"), encoding: .utf8).contains("merged from 3 shard(s)"))

        // Refusals (exit 2, nothing written): a shard missing, a shard twice, the whole campaign plus a shard,
        // a shard of another campaign, an --out that is not empty.
        #expect(await LifeboatMain.run(["report", "merge", shards[0], shards[1], "--out", scratch.path("m1").path]) == 2)
        #expect(await LifeboatMain.run(["report", "merge", shards[0], shards[0], shards[1], shards[2], "--out", scratch.path("m2").path]) == 2)
        #expect(await LifeboatMain.run(["report", "merge", wholeFolder.path, shards[0], "--out", scratch.path("m3").path]) == 2)
        for name in ["m1", "m2", "m3"] { #expect(!FileManager.default.fileExists(atPath: scratch.path(name).path), "\(name) written") }
        let otherReports = scratch.path("other")
        #expect(await LifeboatMain.run(["run"] + files + ["--seeds", "1-2", "--shard", "3/3", "--reports", otherReports.path,
                                                      "--scratch", scratch.path("s").path]) == 0)
        let (otherFolder, _) = try Self.suite(otherReports)
        #expect(await LifeboatMain.run(["report", "merge", shards[0], shards[1], otherFolder.path, "--out", scratch.path("m4").path]) == 2)
        #expect(await LifeboatMain.run(["report", "merge"] + shards + ["--out", merged.path]) == 2)
        #expect(await LifeboatMain.run(["report", "merge", scratch.path("nowhere").path, "--out", scratch.path("m5").path]) == 2)
    }

    @Test func withoutFuseTheFaultFSDrillsAreSkippedAndTheRunIsIncomplete() throws {
        let scratch = try Scratch("cli-nofuse")
        let files = try Self.write(scratch, ["a.yaml": Self.replace, "m.yaml": Self.mounted])
        let reports = scratch.path("reports")
        // A child process, so the override does not reach tests running beside this one.
        func lifeboat(_ arguments: [String]) throws -> Int32 {
            let process = Process()
            process.executableURL = try LifeboatExecutable.locate()
            process.arguments = arguments + ["--reports", reports.path, "--scratch", scratch.path("s").path]
            process.environment = ProcessInfo.processInfo.environment.merging(["LIFEBOAT_NO_FUSE": "1"]) { _, new in new }
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            return process.terminationStatus
        }
        #expect(try lifeboat(["run"] + files + ["--seeds", "4"]) == 3)
        let (folder, summary) = try Self.suite(reports)
        let skipped = try #require(summary.entries.first { $0.scenario == "camp-mounted" })
        #expect(skipped.status == .skipped && skipped.reason?.contains("LIFEBOAT_NO_FUSE=1") == true)
        #expect(summary.entries.first { $0.scenario == "camp-replace" }?.expectationMet == true)
        #expect(summary.fuse.available == false && summary.outcome.word == "incomplete" && summary.outcome.code == 3)
        let junit = try String(contentsOf: folder.appendingPathComponent("junit.xml"), encoding: .utf8)
        #expect(junit.contains("<skipped message=\"skipped: needs FaultFS, and FUSE is unavailable: LIFEBOAT_NO_FUSE=1 is set\"/>"))
        // --require-fuse: bad environment before anything runs; a single FaultFS drill is skipped the same way.
        #expect(try lifeboat(["run"] + files + ["--seeds", "4", "--require-fuse"]) == 2)
        #expect(try lifeboat(["run", files[1]]) == 3)
        #expect(try lifeboat(["run", files[1], "--require-fuse"]) == 2)
    }

    @Test func timeBudgetAndRepeatShowInTheSummary() async throws {
        let scratch = try Scratch("cli-budget")
        let files = try Self.write(scratch, ["b.yaml": Self.replace, "wrong.yaml": Self.duplicates.replacingOccurrences(of: "expect: violation no-duplicates", with: "expect: pass")
            .replacingOccurrences(of: "camp-duplicates", with: "camp-wrong")])
        let reports = scratch.path("reports")
        let common = ["--reports", reports.path, "--scratch", scratch.path("s").path]
        // A budget spent by the first run: the rest is listed as not run, and the campaign is incomplete.
        #expect(await LifeboatMain.run(["run", files[0], "--seeds", "1-3", "--time-budget", "0.01s"] + common) == 3)
        let (_, budget) = try Self.suite(reports)
        #expect(budget.entries.map(\.status) == [.ran, .notRun, .notRun])
        #expect(budget.entries[1].reason?.contains("time budget") == true)
        // A drill that fails on its seed, rerun: the same verdict every time, so failed but not flaky.
        #expect(await LifeboatMain.run(["run", files[1], "--seeds", "2", "--repeat", "1"] + common) == 1)
        let (folder, repeated) = try Self.suite(reports)
        let entry = try #require(repeated.entries.first)
        #expect(entry.expectationMet == false && entry.reruns.count == 1 && !entry.isFlaky)
        #expect(repeated.scenarios.first?.firstFailure?.seed == 2)
        let repro = try #require(repeated.scenarios.first?.firstFailure?.repro)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent(repro).path))
    }

    @Test(arguments: [
        ["--seeds", "5-1"], ["--seeds", "1-x"], ["--seeds", "1,1"], ["--seeds", "1-200000"], ["--seed", "3", "--seeds", "1-2"],
        ["--shard", "4/3"], ["--shard", "0/2"], ["--shard", "two"], ["--time-budget", "soon"], ["--time-budget", "-5m"],
        ["--repeat", "500"],
    ])
    func badCampaignOptionsExitTwo(_ options: [String]) async {
        #expect(await LifeboatMain.run(["run", "Scenarios/smoke.yaml"] + options) == 2)
    }
}
