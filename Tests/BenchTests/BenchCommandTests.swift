import Bench
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat bench` on the command line: bad input exits 2, a regression against a baseline exits 1.
@Suite struct BenchCommandTests {
    @Test func badArgumentsExitTwo() async throws {
        #expect(await LifeboatMain.run(["bench", "--sizes", "12XB"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--sizes", "64MB,,1GB"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--sizes", "100KB"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--strategies", "migrate,teleport"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--strategies", "command"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--rounds", "0"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--volume", "zfs"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--blob-fraction", "1.5"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--threshold", "-1"]) == 2)
        #expect(await LifeboatMain.run(["bench", "--compare", "/nonexistent/bench.json"]) == 2)
        #expect(await LifeboatMain.run(["bench-child", "--allocate", "lots"]) == 2)
        #expect(await LifeboatMain.run(["bench-child", "--strategy", "replace"]) == 2)
    }

    @Test func sizesAndStrategiesParse() throws {
        #expect(try BenchPlan.parseSizes("1GB,64MB,256MB,64MB") == [64_000_000, 256_000_000, 1_000_000_000])
        #expect(try BenchPlan.parseSizes("200MiB") == [200 * 1_048_576])
        #expect(ByteCount.parse("12XB") == nil)
        #expect(try BenchPlan.parseStrategies("migrate, replace") == ["migrate", "replace"])
        #expect(throws: BenchError.self) { try BenchPlan.parseStrategies("teleport") }
    }

    /// A real run writes bench.json/md/html; compared with a baseline that was much faster it exits 1.
    @Test func aRegressionAgainstABaselineExitsOne() async throws {
        let lifeboat = try #require(BenchTestSupport.lifeboatExecutable())
        let scratch = try Scratch("bench-cli")
        let common = ["bench", "--sizes", "2MB", "--strategies", "replace", "--rounds", "1", "--no-check",
                      "--cache", scratch.path("cache").path, "--reports", scratch.path("reports").path, "--child-executable", lifeboat]
        #expect(await LifeboatMain.run(common) == 0)
        let latest = scratch.path("reports/latest")
        for name in ["bench.json", "bench.md", "bench.html"] {
            #expect(FileManager.default.fileExists(atPath: latest.appendingPathComponent(name).path))
        }
        var baseline = try BenchReportFiles.read(latest.appendingPathComponent("bench.json"))
        for index in baseline.results.indices {
            baseline.results[index].wallSeconds.median /= 100
            baseline.results[index].peakRSSBytes.median /= 10
        }
        let fast = scratch.path("fast.json")
        try baseline.encoded().write(to: fast)
        #expect(await LifeboatMain.run(common + ["--compare", fast.path]) == 1)
        #expect(await LifeboatMain.run(common + ["--compare", fast.path, "--threshold", "1000"]) == 0)
    }
}
