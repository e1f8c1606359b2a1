import ArgumentParser
import Bench
import Foundation
import Reporting
import StoreModel
import Runner

/// `lifeboat bench`: times and measures the memory of backup strategies on generated stores of given sizes,
/// one fresh child process per round, and writes reports/bench-<id>/ (bench.json, bench.md, bench.html).
struct BenchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Benchmark backup strategies and the checker on stores of given sizes (time, CPU, peak memory).",
        discussion: """
        Stores are generated once and cached (--cache, default .lifeboat-cache/ in the repository root). Every round \
        runs in a fresh child process; wall time, CPU time and peak RSS come from wait4. With --compare, exits 1 \
        when time or peak memory is worse than the baseline by more than --threshold. Exit 2 on bad input.
        """)

    @Option(help: "Store sizes, comma-separated (64MB, 1GB, 200MiB...).") var sizes: String = "64MB,256MB,1GB"
    @Option(help: "Backup strategies, comma-separated.") var strategies: String = BenchPlan.defaultStrategies.joined(separator: ",")
    @Option(help: "Share of notes with an attachment (0...1).") var blobFraction: Double = 0.1
    @Option(help: "Rounds per strategy and size (median and min–max are reported).") var rounds: Int = 3
    @Option(help: "ext4 (the cache's file system), xfs-reflink (a loop-mounted XFS with reflinks; needs root) or faultfs (FaultFS with no fault armed: sync calls counted per round).") var volume: String = "ext4"
    @Option(help: "A bench.json to compare with; regressions exit 1.") var compare: String?
    @Option(help: "Relative worsening of time or peak memory that counts as a regression.") var threshold: Double = 0.25
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Cache of generated stores (default: .lifeboat-cache in the repository root, or in the current folder outside a clone; an empty one is removed at the end).") var cache: String?
    @Flag(help: "Skip measuring `lifeboat check` on each store.") var noCheck = false
    @Option(help: "Measure the strategies on a store of your own (its .sqlite; copied with its -wal and external data, never touched) instead of generated stores; --sizes is ignored.")
    var store: String?
    @Option(help: .hidden) var childExecutable: String?

    static let debugWarning = TerminalStyle.paint("warning: this is a debug build: its times are several times a release build's "
        + "(migrate's are mostly Swift CPU); for figures to act on, build with `swift build -c release` and run .build/release/lifeboat bench", .yellow)

    /// Removes each folder that exists and holds nothing, in order (a folder emptied by the one before goes too).
    static func removeIfEmpty(_ folders: [URL]) {
        for folder in folders where (try? FileManager.default.contentsOfDirectory(atPath: folder.path))?.isEmpty == true {
            try? FileManager.default.removeItem(at: folder)
        }
    }

    func validate() throws {
        do {
            _ = try BenchPlan.parseSizes(sizes)
            _ = try BenchPlan.parseStrategies(strategies)
        } catch let error as BenchError {
            throw ValidationError(error.description)
        }
        guard (0...1).contains(blobFraction) else { throw ValidationError("--blob-fraction must be between 0 and 1") }
        guard (1...100).contains(rounds) else { throw ValidationError("--rounds must be between 1 and 100") }
        guard BenchPlan.Volume(rawValue: volume) != nil else {
            throw ValidationError("--volume must be one of \(BenchPlan.Volume.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        guard threshold > 0, threshold.isFinite else { throw ValidationError("--threshold must be a positive fraction (0.25 is 25%)") }
    }

    func run() throws {
        do {
            let baseline = try compare.map { try BenchReportFiles.read(URL(cliPath: $0)) }
            let cacheRoot = cache.map { URL(cliPath: $0) } ?? BenchDefaults.cacheDirectory()
            let userStore = store.map { URL(cliPath: $0) }
            let storeSizes = try userStore.map { [StoreSize.of($0)] } ?? BenchPlan.parseSizes(sizes)
            var plan = BenchPlan(sizes: storeSizes, strategies: try BenchPlan.parseStrategies(strategies),
                                 blobFraction: blobFraction, rounds: rounds, volume: BenchPlan.Volume(rawValue: volume)!,
                                 cache: cacheRoot, scratch: cacheRoot.appendingPathComponent("work"),
                                 childExecutable: childExecutable ?? BenchDefaults.lifeboatExecutable())
            plan.measureChecker = !noCheck
            plan.userStore = userStore
            let run = try RunDirectory.create(root: URL(cliPath: reports), prefix: "bench-")
            if BenchReport.Host.current.buildConfiguration == "debug" { print(Self.debugWarning) }
            // The work folder (and a default cache that ends up empty, as with --store) goes at the end, so
            // the user's folder keeps no empty .lifeboat-cache/work.
            defer { Self.removeIfEmpty([plan.scratch] + (cache == nil ? [cacheRoot] : [])) }
            let progress = Progress(total: plan.measuredUnits, label: "rounds")
            progress.tick()
            var runner = BenchRunner(plan: plan)
            runner.events = { event in
                switch event {
                case .working(let what): progress.activity(what)
                case .measured(let line): progress.step(line)
                }
            }
            let report = try runner.run(id: run.id) { line in
                // Round lines come through `events`; the rest (stores, comparisons) are notes.
                if !line.contains(" round ") { progress.note(line) }
            }
            progress.finish()
            try BenchReportFiles.write(report, to: run)
            print(BenchTable.text(report))
            print("")
            for line in BenchVerdict.lines(report) { print(TerminalStyle.paint(line, .bold)) }
            if report.host.buildConfiguration == "debug" { print(Self.debugWarning) }
            print("report: \(run.url.path)/bench.{json,md,html} (\(URL(cliPath: reports).path)/latest)")
            if let baseline {
                let comparison = BaselineComparison(threshold: threshold).compare(report, baseline: baseline)
                for item in comparison.unmatched { print("not in baseline: \(item)") }
                for regression in comparison.regressions { print(regression) }
                print("compared with \(compare ?? ""): \(comparison.regressions.count) regression(s) over \(Int((threshold * 100).rounded()))%")
                if !comparison.regressions.isEmpty { throw ExitCode(1) }
            }
        } catch let error as BenchError {
            switch error {
            case .badInput, .environment: throw CLIFailure.badInput(error.description)
            case .childFailed: throw CLIFailure.violation(error.description)
            }
        }
    }
}
