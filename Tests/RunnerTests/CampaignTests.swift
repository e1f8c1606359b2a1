import Checks
import Foundation
import Reporting
import Runner
import Scenario
import Testing

/// Seeds, shards, campaign fingerprints, flaky marking and the merge rules, without running anything.
@Suite struct CampaignTests {
    @Test func seedListsTakeRangesAndLists() throws {
        #expect(try SeedList("1-5,9,20-22").seeds == [1, 2, 3, 4, 5, 9, 20, 21, 22])
        #expect(try SeedList(" 7 ").seeds == [7])
        #expect(try SeedList("0-0").seeds == [0])
        #expect(try SeedList("18446744073709551614-18446744073709551615").seeds == [UInt64.max - 1, UInt64.max])
    }

    @Test(arguments: [
        ("", "no seeds"), ("5-1", "backwards"), ("1-x", "not a range"), ("a", "not a seed"), ("1,,2", "empty"),
        ("1-3,2", "repeats seed 2"), ("1-100001", "more than 100000"), ("-3", "not a seed"),
        ("0-18446744073709551615", "more than"), ("18446744073709551616", "not a seed"),
    ])
    func badSeedListsSayWhichPieceIsWrong(_ text: String, _ message: String) {
        #expect {
            _ = try SeedList(text)
        } throws: { error in
            (error as? SeedList.ParseError)?.message.contains(message) == true
        }
    }

    @Test func shardsParseAndRangeCheck() throws {
        #expect(try Shard("2/3") == Shard(index: 2, count: 3))
        for bad in ["0/3", "4/3", "3", "1/0", "a/b", "1/1001", "2/3/4"] {
            #expect(throws: SeedList.ParseError.self, "\(bad)") { _ = try Shard(bad) }
        }
    }

    static func campaign(_ names: [String], seeds: String?) throws -> Campaign {
        try Campaign(drills: names.map { name in
            var scenario = Scenario(name: name)
            scenario.writers.transactions = name.count
            return Campaign.Drill(file: URL(fileURLWithPath: "/x/\(name).yaml"), scenario: scenario)
        }, seeds: try seeds.map { try SeedList($0) })
    }

    /// N shards cover every pair exactly once, for every campaign size and shard count tried.
    @Test func shardsCoverTheCampaignExactlyOnce() throws {
        for scenarioCount in 1...4 {
            for seedCount in 1...6 {
                let campaign = try Self.campaign((1...scenarioCount).map { "s\($0)" }, seeds: "1-\(seedCount)")
                for count in 1...8 {
                    let slices = (1...count).map { campaign.slice(Shard(index: $0, count: count)) }
                    let all = slices.flatMap { $0 }
                    #expect(all.count == campaign.pairs.count)
                    #expect(Set(all) == Set(campaign.pairs))
                    #expect(slices.map(\.count).max()! - slices.map(\.count).min()! <= 1, "balanced")
                }
            }
        }
    }

    @Test func campaignIDDependsOnContentSeedsAndNotOnPaths() throws {
        let a = try Self.campaign(["alpha", "beta"], seeds: "1-3").info()
        let b = try Self.campaign(["alpha", "beta"], seeds: "1-3").info()
        #expect(a.id == b.id && a.pairs.count == 6)
        #expect(try Self.campaign(["alpha", "beta"], seeds: "1-4").info().id != a.id)
        #expect(try Self.campaign(["alpha", "gamma"], seeds: "1-3").info().id != a.id)
        // Same names, another path, other content: another campaign; another path, same content: the same.
        var drill = Campaign.Drill(file: URL(fileURLWithPath: "/elsewhere/alpha.yaml"), scenario: Scenario(name: "alpha"))
        drill.scenario.writers.transactions = 5
        var beta = Scenario(name: "beta")
        beta.writers.transactions = 4
        let moved = try Campaign(drills: [drill, Campaign.Drill(file: URL(fileURLWithPath: "/y/beta.yaml"), scenario: beta)], seeds: SeedList("1-3"))
        #expect(moved.info().id == a.id)
        drill.scenario.store.objects += 1
        #expect(try Campaign(drills: [drill, Campaign.Drill(file: URL(fileURLWithPath: "/y/beta.yaml"), scenario: beta)], seeds: SeedList("1-3")).info().id != a.id)
        #expect(throws: Campaign.DuplicateName.self) { _ = try Self.campaign(["alpha", "alpha"], seeds: nil) }
    }

    static func result(_ scenario: String, seed: UInt64, _ statuses: [String: Verdict.Status], expectation: String = "pass") -> RunResult {
        let verdicts = statuses.sorted { $0.key < $1.key }.map { Verdict($0.key, $0.value, "\($0.key) \($0.value.rawValue)") }
        let met = expectation == "pass" ? !verdicts.contains { $0.status == .violated } : verdicts.contains { "violation \($0.invariant)" == expectation && $0.status == .violated }
        return RunResult(runID: "r-\(scenario)-\(seed)-\(UUID().uuidString.prefix(4))", scenario: scenario, scenarioFile: "\(scenario).yaml", description: "",
                         seed: seed, expectation: expectation, expectationMet: met, startedAt: "2026-01-01T00:00:00Z", seconds: 1.5,
                         verdicts: verdicts, events: [], writers: [], operations: [], faults: [], metrics: [:], errors: [])
    }

    @Test func aVerdictThatChangesBetweenIdenticalRunsIsFlaky() {
        let first = Self.result("s", seed: 3, ["integrity": .held, "no-duplicates": .violated])
        let same = Self.result("s", seed: 3, ["integrity": .held, "no-duplicates": .violated])
        let other = Self.result("s", seed: 3, ["integrity": .held, "no-duplicates": .held])
        let stable = SuiteEntry.ran(first, path: "runs/a", reruns: [(same, "runs/b")])
        #expect(stable.flaky.isEmpty && !stable.isFlaky && stable.expectationMet == false)
        let flaky = SuiteEntry.ran(first, path: "runs/a", reruns: [(same, "runs/b"), (other, "runs/c")])
        #expect(flaky.flaky == ["no-duplicates"] && flaky.isFlaky)
        // The first run decides: a flaky failure still fails the campaign.
        let summary = Self.summary([flaky], campaign: try? Self.campaign(["s"], seeds: "3"))
        #expect(summary.computeOutcome().code == 1 && summary.computeOutcome().flaky == 1)
        #expect(SuiteJUnitReport.render(summary).contains("[flaky] no-duplicates violated"))
    }

    static func summary(_ entries: [SuiteEntry], campaign: Campaign?, shard: SuiteSummary.ShardInfo? = nil, id: String = "suite-x") -> SuiteSummary {
        let info = campaign?.info() ?? SuiteSummary.CampaignInfo(id: "none", lifeboatVersion: "0", seeds: "", scenarios: [], pairs: [])
        return SuiteSummary(suiteID: id, campaign: info, shard: shard, startedAt: "2026-01-01T00:00:00Z", seconds: 3,
                            fuse: SuiteSummary.FuseInfo(available: true, reason: nil),
                            options: SuiteSummary.Options(repeatFailing: 0, timeBudgetSeconds: nil, requireFuse: false), entries: entries)
    }

    @Test func tallyCountsPerScenarioAndInvariantAndTheOutcome() throws {
        let campaign = try Self.campaign(["a", "b"], seeds: "1-2")
        let entries = [
            SuiteEntry.ran(Self.result("a", seed: 1, ["integrity": .held, "no-duplicates": .notApplicable]), path: "runs/1", reruns: []),
            SuiteEntry.ran(Self.result("b", seed: 1, ["integrity": .violated]), path: "runs/2", reruns: []),
            SuiteEntry.ran(Self.result("a", seed: 2, ["integrity": .held, "no-duplicates": .held]), path: "runs/3", reruns: []),
            SuiteEntry.absent(.init(scenario: "b", seed: 2), expectation: "pass", status: .skipped, reason: "needs FaultFS"),
        ]
        let summary = Self.summary(entries, campaign: campaign).withTallies()
        let a = try #require(summary.scenarios.first { $0.scenario == "a" })
        #expect(a.pairs == 2 && a.asExpected == 2 && a.unexpected == 0 && a.seconds == 3)
        let b = try #require(summary.scenarios.first { $0.scenario == "b" })
        #expect(b.unexpected == 1 && b.skipped == 1 && b.firstFailure?.seed == 1 && b.firstFailure?.repro == "runs/2/repro.yaml")
        let integrity = try #require(summary.invariants.first { $0.invariant == "integrity" })
        #expect(integrity.held == 2 && integrity.violated == 1 && integrity.failures == 1 && integrity.firstFailure?.scenario == "b")
        let duplicates = try #require(summary.invariants.first { $0.invariant == "no-duplicates" })
        #expect(duplicates.held == 1 && duplicates.notApplicable == 1)
        #expect(summary.outcome.code == 1)
        // Without the violation, the skipped pair makes the campaign incomplete, not passed.
        let incomplete = Self.summary(entries.filter { $0.scenario == "a" || $0.status == .skipped }, campaign: campaign)
        #expect(incomplete.computeOutcome().code == 3 && incomplete.computeOutcome().word == "incomplete")
        let junit = SuiteJUnitReport.render(summary)
        #expect(junit.contains("skipped: needs FaultFS") && junit.contains("integrity [seed 1]"))
    }

    @Test func mergeRefusesPartsThatAreNotTheCampaignExactlyOnce() throws {
        let campaign = try Self.campaign(["a", "b"], seeds: "1-2")
        func part(_ shard: Int, of count: Int, _ c: Campaign = campaign) -> (label: String, summary: SuiteSummary) {
            let entries = c.slice(Shard(index: shard, count: count)).map {
                SuiteEntry.ran(Self.result($0.scenario, seed: $0.seed, ["integrity": .held]), path: "runs/\($0.scenario)-\($0.seed)", reruns: [])
            }
            return ("shard\(shard)", Self.summary(entries, campaign: c, shard: .init(index: shard, count: count), id: "s\(shard)"))
        }
        let merged = try SuiteSummary.merge([part(2, of: 2), part(1, of: 2)], suiteID: "all")
        #expect(merged.entries.map(\.pair) == campaign.pairs && merged.mergedFrom == ["s2", "s1"] && merged.outcome.code == 0)
        #expect(throws: SuiteSummary.MergeError.self) { _ = try SuiteSummary.merge([part(1, of: 2)], suiteID: "x") }
        #expect(throws: SuiteSummary.MergeError.sameShardTwice("shard1 and shard1 are both shard 1/2")) {
            _ = try SuiteSummary.merge([part(1, of: 2), part(1, of: 2)], suiteID: "x")
        }
        #expect(throws: SuiteSummary.MergeError.self) { _ = try SuiteSummary.merge([part(1, of: 2), part(2, of: 3)], suiteID: "x") }
        let other = try Self.campaign(["a", "b"], seeds: "1-3")
        #expect(throws: SuiteSummary.MergeError.self) { _ = try SuiteSummary.merge([part(1, of: 2), part(2, of: 2, other)], suiteID: "x") }
        // A whole campaign plus one of its shards: the shard's pairs are duplicated.
        var whole = part(1, of: 1)
        whole.summary.shard = nil
        do {
            _ = try SuiteSummary.merge([whole, part(1, of: 2)], suiteID: "x")
            Issue.record("a duplicated pair was merged")
        } catch let error as SuiteSummary.MergeError {
            guard case .duplicatedPairs(let pairs) = error else { Issue.record("\(error)"); return }
            #expect(Set(pairs) == Set(campaign.slice(Shard(index: 1, count: 2))))
        }
    }

    @Test func fuseOverrideSaysNoWithoutLooking() {
        #expect(FuseProbe.quickReason(environment: ["LIFEBOAT_NO_FUSE": "1"])?.contains("LIFEBOAT_NO_FUSE=1") == true)
        // 0 or empty is "not set": the device decides (present and usable on this machine).
        #expect(FuseProbe.quickReason(environment: ["LIFEBOAT_NO_FUSE": "0"]) == nil)
        #expect(FuseProbe.quickReason(environment: [:]) == nil)
    }
}
