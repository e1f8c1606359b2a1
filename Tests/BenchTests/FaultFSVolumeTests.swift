import Bench
import Foundation
import LifeboatTestSupport
import Testing

/// `--volume faultfs`: the stores sit on FaultFS with its op log on, every round says how many sync calls the
/// strategy made, and nothing stays mounted afterwards.
@Suite struct FaultFSVolumeTests {
    @Test func roundsCountTheirSyncCallsAndTheMountGoes() throws {
        let lifeboat = try #require(BenchTestSupport.lifeboatExecutable())
        let scratch = try Scratch("bench-faultfs")
        let plan = BenchPlan(sizes: [2_000_000], strategies: ["replace", "file-copy"], blobFraction: 0.2, rounds: 1, volume: .faultfs,
                             cache: scratch.path("cache"), scratch: scratch.path("work"), childExecutable: lifeboat)
        let report = try BenchRunner(plan: plan).run(id: "faultfs-test")
        let replace = try #require(report.results.first { $0.strategy == "replace" })
        let fileCopy = try #require(report.results.first { $0.strategy == "file-copy" })
        // replace commits its copy through SQLite (which syncs) and syncs each external file it copies.
        let replaceSyncs = ["fsync", "fdatasync"].compactMap { replace.details[$0].flatMap(Int.init) }.reduce(0, +)
        #expect(replaceSyncs >= 2, "\(replace.details)")
        // file-copy copies the .sqlite alone and syncs it once.
        #expect(fileCopy.details["fsync"] == "1", "\(fileCopy.details)")
        let mounts = (try? String(contentsOfFile: "/proc/mounts", encoding: .utf8)) ?? ""
        #expect(!mounts.contains(scratch.url.path), "a FaultFS mount stayed behind")
        let left = (try? FileManager.default.contentsOfDirectory(atPath: scratch.path("work").path)) ?? []
        #expect(left.filter { $0.contains("faultfs") }.isEmpty, "\(left)")
    }
}
