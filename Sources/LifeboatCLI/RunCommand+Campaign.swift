import ArgumentParser
import Checks
import Foundation
import Synchronization
import Reporting
import Runner
import Scenario

/// `lifeboat run` over more than one scenario or seed: a campaign. Every (scenario, seed) pair of the slice
/// runs (or is skipped, or not run, with the reason), the run folders go inside one suite folder
/// `reports/suite-<id>/` with index.html, summary.json and junit.xml, and `reports/latest` points at the suite.
///
/// Exit codes over the whole campaign: 0 every run as expected; 1 a run that did not show what it expects;
/// 2 bad input or environment (`--require-fuse` without FUSE); 3 incomplete: nothing unexpected, but pairs were
/// skipped (FaultFS drills without FUSE) or not run (time budget).
extension RunCommand {
    /// The exit code of a campaign that ran without a surprise but not every pair.
    static let incompleteExitCode: Int32 = 3

    /// Whether this invocation is a campaign (a single scenario without campaign options runs as before).
    func isCampaign(scenarioCount: Int) -> Bool {
        scenarioCount > 1 || seeds != nil || shard != nil || timeBudget != nil || repeatFailing > 0 || reproduce > 0 || catalog != nil
    }

    func validateCampaignOptions() throws {
        if seeds != nil, seed != nil {
            throw ValidationError("--seed and --seeds cannot be combined (a single seed is --seeds N)")
        }
        if let seeds {
            do { _ = try SeedList(seeds) } catch let error as SeedList.ParseError { throw ValidationError(error.message) }
        }
        if let shard {
            do { _ = try Shard(shard) } catch let error as SeedList.ParseError { throw ValidationError(error.message) }
        }
        if let timeBudget, DurationText.seconds(timeBudget) == nil {
            throw ValidationError("--time-budget \(timeBudget): write a positive duration of at most a week, e.g. 10m, 90s or 1h30m")
        }
        guard (0...100).contains(repeatFailing) else { throw ValidationError("--repeat must be between 0 and 100") }
        guard (0...100).contains(reproduce) else { throw ValidationError("--reproduce must be between 0 and 100") }
    }

    /// Runs `parsed` as a campaign and returns true, or returns false for a plain single run (after checking that
    /// it can run at all without FUSE).
    func runAsCampaign(_ parsed: [(URL, Scenario)]) throws -> Bool {
        guard isCampaign(scenarioCount: parsed.count) else {
            try checkSingleRunCanMount(parsed)
            return false
        }
        let seedList = try seeds.map { try SeedList($0) }
        let bugCatalog = try catalog.map { _ in try loadCatalog(parsed.map(\.0)) }
        let campaign: Campaign
        do { campaign = try Campaign(drills: parsed.map { Campaign.Drill(file: $0.0, scenario: $0.1) }, seeds: seedList) } catch let error as Campaign.DuplicateName {
            throw CLIFailure.badInput(error.description)
        }
        let shardValue = try shard.map { try Shard($0) }
        let pairs = campaign.slice(shardValue)
        var settings = ScenarioCommandSupport.settings(reports: reports, scratch: scratch)
        settings.keepScratch = keep
        if verbose || isatty(STDOUT_FILENO) != 0 {
            settings.progress = { @Sendable (line: String) in print("  " + line) }
        }
        let faultFSPairs = pairs.filter { campaign.drill(for: $0)?.scenario.faults.needsFaultFS == true }.count
        let fuse = faultFSPairs > 0 ? FuseProbe.detect(scratch: settings.scratchRoot) : SuiteSummary.FuseInfo(available: true, reason: nil)
        if !fuse.available {
            let reason = fuse.reason ?? "unknown reason"
            if requireFuse { throw CLIFailure.badInput("FUSE is unavailable (\(reason)) and --require-fuse is set; \(faultFSPairs) pair(s) need FaultFS (\(Doctor.hint))") }
            print("FUSE unavailable: \(reason); the \(faultFSPairs) pair(s) that need FaultFS are skipped (\(Doctor.hint))")
        }
        let folder = try SuiteFolder.create(reportsRoot: URL(cliPath: reports))
        settings.reportsRoot = folder.runsRoot
        var options = CampaignRunner.Options()
        options.repeatFailing = repeatFailing
        options.reproduce = reproduce
        options.timeBudget = timeBudget.flatMap(DurationText.seconds)
        options.fuse = fuse
        options.jobs = try jobCount()
        let info = campaign.info()
        let startedAt = ISO8601DateFormatter().string(from: Date())
        let started = Date()
        let runOptions = SuiteSummary.Options(repeatFailing: repeatFailing, timeBudgetSeconds: options.timeBudget, requireFuse: requireFuse)
        @Sendable func summary(_ entries: [SuiteEntry]) -> SuiteSummary {
            // While the campaign goes, the pairs still to come show as not run, so a folder read mid-way is whole.
            let done = Set(entries.map(\.pair))
            let pending = pairs.filter { !done.contains($0) }.map {
                SuiteEntry.absent($0, expectation: campaign.drill(for: $0)?.scenario.expect.description ?? "", status: .notRun, reason: "not reached: the campaign was still running when this summary was written, or was killed")
            }
            var summary = SuiteSummary(suiteID: folder.id, campaign: info, shard: shardValue?.info, startedAt: startedAt,
                                       seconds: Date().timeIntervalSince(started), fuse: fuse, options: runOptions, entries: entries + pending)
            // A folder read mid-way (or left by a killed job) and an interrupted campaign are errors in JUnit, not passes.
            summary.interruption = Interruption.description.map { "the campaign was \($0)" }
                ?? (pending.isEmpty ? nil : "the campaign was still running when this summary was written, or was killed")
            return summary
        }
        print("campaign \(info.id.prefix(16)): \(campaign.drills.count) scenario(s) x seeds \(info.seeds) = \(campaign.pairs.count) pair(s)"
              + (shardValue.map { "; shard \($0): \(pairs.count) pair(s)" } ?? "") + " — suite \(folder.url.path)")
        // The folder is whole from the start (every pair "not reached"), so a job killed mid-way leaves a report.
        try folder.write(summary([]))
        try folder.markLatest()
        Interruption.install()
        var hooks = CampaignRunner.Hooks()
        // On a terminal, a progress line (pairs done of the slice, time left) between pairs; cleared before a run prints.
        let progress = Progress(total: pairs.count, label: "pairs")
        hooks.willRun = { pair, position, total, attempt in
            progress.finish()
            let expectation = campaign.drill(for: pair)?.scenario.expect.description ?? "?"
            print("== [\(position + 1)/\(total)] \(pair.scenario) seed \(pair.seed), expect \(expectation)" + (attempt > 0 ? " (rerun \(attempt) of \(repeatFailing))" : ""))
        }
        hooks.didRun = { _, result, directory, _ in Self.printRun(result, directory: directory) }
        // Pairs may finish on several threads (--jobs): the summary is written under one lock.
        let lastWrite = Mutex(Date())
        hooks.didFinishPair = { entry, entries in
            defer { progress.step() }
            progress.finish()
            if entry.status != .ran { print("== \(entry.scenario) seed \(entry.seed): \(entry.status == .skipped ? "skipped" : "not run") — \(entry.reason ?? "")") }
            if let reproduction = entry.reproduction { print("   \(reproduction.invariant): \(reproduction.text)") }
            if entry.isFlaky { print("   FLAKY: the verdict changed between identical runs (\(entry.flaky.joined(separator: ", ")))") }
            lastWrite.withLock { last in
                guard Date().timeIntervalSince(last) >= 15 else { return }
                try? folder.write(summary(entries))
                last = Date()
            }
        }
        let entries = try CampaignRunner(campaign: campaign, settings: settings, options: options).run(pairs, hooks: hooks)
        progress.finish()
        let final = summary(entries).withTallies()
        try folder.write(final)
        try folder.markLatest()
        if let junit { try Data(SuiteJUnitReport.render(final).utf8).write(to: URL(cliPath: junit)) }
        if let bugCatalog, let catalog { try writeCatalog(bugCatalog, summary: final, folder: folder, to: URL(cliPath: catalog)) }
        print(SuiteTextReport.render(final, folder: folder.url.path), terminator: "")
        print("suite report: \(folder.url.path)/index.html (reports/latest points at it)")
        let ciRuns = CIOutput.runs(of: final, folder: folder.url, drills: parsed)
        try CIOutput.emit(CIOutput.findings(runs: ciRuns, workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)),
                          verdicts: CIOutput.verdicts(runs: ciRuns), context: .init(command: commandLine, category: "lifeboat-run", reports: folder.url),
                          options: ci)
        if Interruption.requested { throw CLIFailure(code: Interruption.exitCode, message: "interrupted; the partial suite: \(folder.url.path)") }
        if final.outcome.code != 0 { throw ExitCode(final.outcome.code) }
        return true
    }

    /// A single run of a drill that needs FaultFS where FUSE is plainly unavailable: skipped (exit 3), or exit 2
    /// with `--require-fuse`, rather than a run that fails on the mount.
    func checkSingleRunCanMount(_ parsed: [(URL, Scenario)]) throws {
        guard let (file, scenario) = parsed.first, scenario.faults.needsFaultFS, let reason = FuseProbe.quickReason() else { return }
        if requireFuse { throw CLIFailure.badInput("\(scenario.name) needs FaultFS, and FUSE is unavailable: \(reason) (\(Doctor.hint))") }
        print("== \(scenario.name) (\(file.lastPathComponent)): skipped — needs FaultFS, and FUSE is unavailable: \(reason) (\(Doctor.hint))")
        throw ExitCode(Self.incompleteExitCode)
    }

    /// One run's verdicts, the program's first; then the app's own findings, apart: they are what the app itself
    /// loses (Core Data's behaviour), not the program's doing, and fail a `pass` run only when the scenario names
    /// them.
    static func printRun(_ result: RunResult, directory: RunDirectory) {
        let width = TerminalStyle.columns
        func show(_ verdict: Verdict, violated: String) {
            guard verdict.status == .violated else {
                print(FindingText.wrap("   \(TerminalStyle.outcome("held    ", good: true)) \(verdict.invariant): \(FindingText.relativePaths(FindingText.oneLine(verdict.summary)))",
                                       width: width.map { $0 + TerminalStyle.overhead }, indent: "", hanging: "            ").joined(separator: "\n"))
                return
            }
            print("   \(TerminalStyle.outcome(violated, good: false))")
            for line in Finding(verdict).lines(indent: 5, width: width) { print(line) }
        }
        let ranked = Verdict.ranked(result.verdicts)
        for verdict in ranked where verdict.status != .notApplicable && !verdict.isAppsOwn { show(verdict, violated: "VIOLATED") }
        // Nothing passes vacuously: what the run gave nothing to examine is named (report.md says why).
        let unexercised = result.verdicts.filter { $0.status == .notApplicable && !$0.isAppsOwn && result.environmentError == nil }
        if !unexercised.isEmpty {
            print(FindingText.wrap("   not exercised: \(unexercised.map(\.invariant).joined(separator: ", ")) (why: report.md)", width: width, indent: "", hanging: "      ").joined(separator: "\n"))
        }
        let apps = ranked.filter { $0.isAppsOwn && $0.status != .notApplicable }
        if !apps.isEmpty {
            print("   the app's own (Core Data's behaviour, not the program's; reported apart):")
            for verdict in apps { show(verdict, violated: "APP LOSS") }
        }
        for error in result.errors { print(FindingText.wrap("   run error: \(FindingText.relativePaths(error))", width: width, indent: "", hanging: "      ").joined(separator: "\n")) }
        if let reason = result.environmentError {
            print("   \(TerminalStyle.outcome("NOT RUN", good: false)) environment error: \(reason) (\(Doctor.hint)) — report: \(directory.url.path)/report.html")
            return
        }
        print("   \(TerminalStyle.outcome(result.expectationMet ? "AS EXPECTED" : "UNEXPECTED", good: result.expectationMet)) (expected \(result.expectation)) in \(String(format: "%.1f", result.seconds)) s — report: \(directory.url.path)/report.html")
    }
}
