import Bench
import Foundation
import FoundationXML
import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Testing

/// The report: a real (tiny) bench run, its JSON round trip, the HTML page, the growth fit and the comparison.
@Suite struct ReportTests {
    /// Runs the bench for real on small stores, in child processes of the built `lifeboat`.
    static func tinyRun(_ scratch: Scratch) throws -> BenchReport {
        let lifeboat = try #require(BenchTestSupport.lifeboatExecutable())
        let plan = BenchPlan(sizes: [1_000_000, 3_000_000], strategies: ["migrate", "replace"], blobFraction: 0.2, rounds: 2,
                             volume: .ext4, cache: scratch.path("cache"), scratch: scratch.path("work"), childExecutable: lifeboat)
        return try BenchRunner(plan: plan).run(id: "test")
    }

    @Test func aRealRunMeasuresEveryStrategyAndRoundTripsThroughJSON() throws {
        let scratch = try Scratch("bench-run")
        let report = try Self.tinyRun(scratch)
        #expect(report.schema == "lifeboat.bench/1")
        #expect(report.results.map(\.strategy) == ["migrate", "replace", "check", "migrate", "replace", "check"])
        for store in report.stores { #expect(store.actualBytes >= store.targetBytes) }
        for result in report.results {
            #expect(result.rounds.count == 2)
            #expect(result.peakRSSBytes.min > 0 && result.peakRSSBytes.min <= result.peakRSSBytes.median)
            #expect(result.peakRSSBytes.median <= result.peakRSSBytes.max)
            if result.strategy != "check" { #expect((result.resultBytes ?? 0) > 0) }
        }
        #expect(report.results.first { $0.strategy == "replace" }?.details["usedClone"] != nil)
        #expect(report.results.first { $0.strategy == "migrate" }.flatMap { Int($0.details["objects"] ?? "") } ?? 0 > 0)
        #expect(report.growth.map(\.subject) == ["migrate", "replace", "check"])
        // Each strategy's output was compared with its store, and its memory sampled while it ran.
        for result in report.results where result.strategy != "check" {
            #expect(result.sourceCheck?.equal == true, "\(result.strategy): \(result.sourceCheck?.summary ?? "not checked")")
            #expect(result.rounds.allSatisfy { !($0.memorySamples ?? []).isEmpty }, "\(result.strategy) has no memory samples")
            let samples = result.rounds[0].memorySamples ?? []
            #expect(samples.map(\.t) == samples.map(\.t).sorted() && samples.allSatisfy { $0.rssBytes > 0 })
        }
        #expect(BenchVerdict.lines(report).count == 2)
        #expect(BenchVerdict.lines(report).allSatisfy { $0.contains("faster") && $0.hasSuffix("every output equals the store") })

        let decoded = try BenchReport.decode(try report.encoded())
        #expect(decoded == report)

        // The second run reuses the cached stores (same manifest), and backups left nothing behind.
        let again = try Self.tinyRun(scratch)
        #expect(again.stores == report.stores)
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: scratch.path("work").path)
        #expect(leftovers.isEmpty)
    }

    @Test func aReportOfAnotherSchemaIsRefused() throws {
        let text = #"{"schema": "lifeboat.bench/999", "id": "x"}"#
        #expect(throws: BenchError.self) { try BenchReport.decode(Data(text.utf8)) }
        #expect(throws: BenchError.self) { try BenchReport.decode(Data("{}".utf8)) }
    }

    @Test func theHTMLIsSelfContainedWithOneSVGPerChart() throws {
        let page = BenchHTML.page(Synthetic.report())
        for forbidden in ["http://", "https://", "<script", "src=", "href=", "@import", "url("] {
            #expect(!page.contains(forbidden), "bench.html contains \(forbidden)")
        }
        // The one sheet every page embeds (PageStyleTests checks the other pages), and no second one.
        #expect(page.contains(PageStyle.css) && page.components(separatedBy: "<style").count - 1 == 1)
        // Bars for time and memory, and with several sizes the two log-log charts (no samples: no memory curve).
        #expect(page.components(separatedBy: "<svg").count - 1 == 4)
        #expect(page.components(separatedBy: "</svg>").count - 1 == 4)
        for label in ["Wall time (median)", "Peak memory (median RSS)", "Peak memory (RSS) vs store size", "Time vs store size", "store size", "peak RSS", "wall time"] {
            #expect(page.contains(label))
        }
        for strategy in ["migrate", "replace", "check"] { #expect(page.contains(">\(strategy)</text>")) }
        #expect(page.contains("verdict (1GB): replace is"))
        try Self.everySVGParses(page)
    }

    /// Each SVG is well-formed XML (the legend's dash pattern once lost its closing quote and swallowed a label).
    static func everySVGParses(_ page: String) throws {
        var rest = page[...]
        while let start = rest.range(of: "<svg"), let end = rest.range(of: "</svg>", range: start.upperBound..<rest.endIndex) {
            let svg = String(rest[start.lowerBound..<end.upperBound])
            #expect(throws: Never.self, "\(svg.prefix(120))") { _ = try XMLDocument(xmlString: svg) }
            rest = rest[end.upperBound...]
        }
    }

    /// A --store run: one size, so bars instead of one-point lines, the store described as it is, and each
    /// strategy's memory over time.
    @Test func aSingleStoreGetsBarsAMemoryCurveAndItsOwnDescription() throws {
        var report = Synthetic.report()
        report.configuration.sizes = [1_000_000_000]
        report.configuration.userStore = "/home/me/Big.sqlite"
        report.results = report.results.filter { $0.targetBytes == 1_000_000_000 }
        report.results[0].rounds[0].memorySamples = (0..<50).map { MemorySample(t: Double($0) * 0.9, rssBytes: 30_000_000 + Int64($0) * 20_000_000) }
        report.results[1].rounds[0].memorySamples = (0..<5).map { MemorySample(t: Double($0) * 0.6, rssBytes: 32_000_000) }
        report.results[0].sourceCheck = SourceCheck(equal: true, summary: "equal", seconds: 1)
        report.results[1].sourceCheck = SourceCheck(equal: false, summary: "DIFFERS: 1 missing-object", seconds: 1)
        report.stores = [.init(targetBytes: 1_000_000_000, actualBytes: 1_010_000_000, databaseBytes: 1_000_000_000, objects: 52_000, attachments: 0)]
        let page = BenchHTML.page(report)
        #expect(page.components(separatedBy: "<svg").count - 1 == 3)
        #expect(page.contains("Memory over time") && !page.contains("vs store size"))
        #expect(page.contains("a copy of /home/me/Big.sqlite") && !page.contains("Blob fraction"))
        try Self.everySVGParses(page)
        let markdown = BenchTable.markdown(report)
        #expect(markdown.contains("your store /home/me/Big.sqlite") && markdown.contains("one store size, so no fit"))
        #expect(!markdown.contains("        "), "no runs of spaces inside sentences")
        let verdict = try #require(BenchVerdict.lines(report).first)
        #expect(verdict == "verdict (your store): replace is 4.0x faster and 32x less peak memory than migrate; the output of replace DIFFERS from the store", "\(verdict)")
        #expect(BenchTable.text(report).contains("output vs store"))
    }

    @Test func theGrowthFitTellsFlatFromLinear() {
        let sizes: [Double] = [64e6, 256e6, 1e9, 4e9]
        let flat = GrowthFit.fit("flat", sizes.enumerated().map { ($1, 30e6 + 0.01 * $1 + Double($0 % 2) * 2e6) })
        let linear = GrowthFit.fit("linear", sizes.map { ($0, 25e6 + 1.1 * $0) })
        let half = GrowthFit.fit("half", sizes.map { ($0, 25e6 + 0.5 * $0) })
        #expect(flat.shape == .flat)
        #expect(abs(flat.slope - 0.01) < 0.005)
        #expect(linear.shape == .linear)
        #expect(abs(linear.slope - 1.1) < 1e-9)
        #expect(abs(linear.intercept - 25e6) < 1)
        #expect(half.shape == .linear)
        #expect(GrowthFit.fit("one", [(64e6, 30e6)]).shape == .unknown)
    }

    @Test func aComparisonFlagsWorseTimeAndMemoryOnly() {
        let baseline = Synthetic.report()
        var current = baseline
        current.results[0].wallSeconds.median *= 2
        current.results[1].peakRSSBytes.median *= 1.5
        current.results[2].wallSeconds.median *= 1.1
        let comparison = BaselineComparison(threshold: 0.25).compare(current, baseline: baseline)
        #expect(comparison.regressions.map { "\($0.strategy) \($0.metric)" } == ["migrate time", "replace peak RSS"])
        #expect(comparison.unmatched.isEmpty)
        #expect(BaselineComparison(threshold: 0.25).compare(baseline, baseline: baseline).regressions.isEmpty)
    }
}

/// A report built from made-up rounds, for rendering and comparison tests.
enum Synthetic {
    static func report() -> BenchReport {
        func round(_ seconds: Double, _ rss: Int64) -> BenchReport.Round {
            BenchReport.Round(wallSeconds: seconds, cpuSeconds: seconds * 0.9, peakRSSBytes: rss, waitMaxRSSBytes: rss, spawnFloorBytes: 30_000_000,
                              child: nil, resultBytes: nil)
        }
        var results: [BenchReport.Result] = []
        for size in [64_000_000, 256_000_000, 1_000_000_000] as [Int64] {
            let scale = Double(size) / 64e6
            results.append(.init(strategy: "migrate", targetBytes: size, storeBytes: size, rounds: [round(2 * scale, 30_000_000 + size)]))
            results.append(.init(strategy: "replace", targetBytes: size, storeBytes: size, rounds: [round(0.5 * scale, 32_000_000)]))
            results.append(.init(strategy: "check", targetBytes: size, storeBytes: size, rounds: [round(0.2 * scale, 33_000_000)]))
        }
        return BenchReport(id: "synthetic", createdAt: "2026-01-01T00:00:00Z",
                           host: .init(cpus: 2, memoryBytes: 1 << 34, kernel: "6.1", buildConfiguration: "release"),
                           configuration: .init(sizes: [64_000_000, 256_000_000, 1_000_000_000], strategies: ["migrate", "replace"],
                                                blobFraction: 0.1, blobSize: 262_144, seed: 1, rounds: 1, volume: "ext4"),
                           stores: [], results: results, growth: GrowthFit.fits(results))
    }
}
