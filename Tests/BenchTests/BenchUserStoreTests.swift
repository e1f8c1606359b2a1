import Bench
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat bench --store PATH`: the strategies measured on a user's own store (a real one here), which is
/// copied and never touched.
@Suite struct BenchUserStoreTests {
    @Test func measuresTheStrategiesOnARealStoreAndLeavesItAlone() async throws {
        let lifeboat = try #require(BenchTestSupport.lifeboatExecutable())
        let scratch = try Scratch("bench-user-store")
        let store = try RealStoreFixtures.copy("wibosco-wal", into: scratch.path("mine"))
        let before = FolderDigest.of(store.deletingLastPathComponent())
        #expect(await LifeboatMain.run(["bench", "--store", store.path, "--strategies", "migrate,replace", "--rounds", "1",
                                        "--cache", scratch.path("cache").path, "--reports", scratch.path("reports").path,
                                        "--child-executable", lifeboat]) == 0)
        let report = try BenchReportFiles.read(scratch.path("reports/latest/bench.json"))
        #expect(Set(report.results.map(\.strategy)) == ["migrate", "replace", "check"])
        #expect(report.stores.first?.objects == 168)
        #expect(FolderDigest.of(store.deletingLastPathComponent()) == before)
        // Nothing cached for a --store run: no empty work folder is left behind (user trial F15).
        #expect(!FileManager.default.fileExists(atPath: scratch.path("cache/work").path))
        #expect(report.configuration.userStore == store.path)
        #expect(report.results.filter { $0.strategy != "check" }.allSatisfy { $0.sourceCheck != nil })
        #expect(await LifeboatMain.run(["bench", "--store", scratch.path("none.sqlite").path, "--rounds", "1",
                                        "--cache", scratch.path("cache").path, "--reports", scratch.path("reports").path,
                                        "--child-executable", lifeboat]) == 2)
    }
}
