import ArgumentParser
import Checks
import Explore
import Foundation
import Reporting
import Runner
import Scenario

extension TryCommand {
    /// `try --deep`: the deep search (`DeepSearch`) once per seed, in `directory/deep-seed<N>/`, with one progress
    /// line for the whole plan; one line per finding (the program's call, the invariant, the cause, the repro).
    /// A point where the program never returned is listed as HUNG (with the call its fault fired on and what the
    /// program did next), and counts as a finding: a backup that hangs for good is no pass.
    /// Exit 1 on a finding or a hung point, 3 when the budget (or an interruption) cut the search with none, 0 otherwise.
    func runDeep(program: TryProgram.Program, seeds: [UInt64], directory: RunDirectory, workingDirectory: URL) throws {
        let recipe: ToolMatrix.Recipe
        do {
            recipe = try TryProgram.recipe(for: program, at: directory.url.appendingPathComponent("scenarios"),
                                                   workingDirectory: workingDirectory, only: ["idle"]).recipe
        } catch let error as ToolMatrix.MatrixError {
            throw CLIFailure.badInput(error.description)
        }
        guard let situation = recipe.situations.first else { throw CLIFailure.badInput("no idle situation in this build") }
        let deadline = budget.flatMap(DurationText.seconds).map { Date().addingTimeInterval($0) }
        print("try \(directory.id) --deep: the program's own calls, \(seeds.count) seed(s)" + (budget.map { ", budget \($0)" } ?? "")
              + (shard.map { ", shard \($0) of the walks (lifeboat report merge the shards' folders)" } ?? ""))
        let progress = Progress(total: nil, label: "points")
        progress.tick()
        var summaries: [(UInt64, DeepSearch.Summary, URL)] = []
        var done = 0
        for seed in seeds {
            var scenario = situation.scenario
            scenario.seed = seed
            let folder = directory.url.appendingPathComponent("deep-seed\(seed)")
            let search = DeepSearch(situation: scenario, file: situation.file.path, directory: folder,
                                    settings: ScenarioCommandSupport.settings(reports: reports, scratch: scratch),
                                    shrinkRuns: shrinkRuns ?? DeepSearch.defaultShrinkRuns)
            let before = done
            let summary = try search.run(deadline: deadline, jobs: try jobCount(), shard: try shardValue(), planned: { total in
                progress.set(done: before, total: before + total * (seeds.count - summaries.count))
            }, progress: { @Sendable line in
                // The probes count the program's calls; every other line is one point searched.
                if line.hasPrefix("probe:") { progress.note(line) } else { progress.step(line) }
            })
            done += summary.total
            summaries.append((seed, summary, folder))
            if summary.incomplete != nil { break }
        }
        progress.finish()
        try directory.markLatest()
        print("")
        var found = false
        var incomplete: String?
        for (seed, summary, folder) in summaries {
            // The programs' own counts (the interleaving runs count the same program again, under writers).
            let calls = summary.calls.filter { !$0.key.contains("+") }.sorted { $0.key < $1.key }.map { program, counts in
                "\(program) " + DeepSearch.probedOps.filter { (counts[$0.rawValue] ?? 0) > 0 }.map { "\(counts[$0.rawValue] ?? 0) \($0)" }.joined(separator: ", ")
            }.joined(separator: "; ")
            print("seed \(seed): \(DeepSearch.coverage(summary)), \(summary.runs) runs in \(Progress.clock(summary.seconds)) (\(calls))")
            if let tables = summary.ioCoverage, !tables.isEmpty { print("  input/output: \(DeepSearch.ioShare(tables))") }
            for (program, swap) in (summary.afterSwap ?? [:]).sorted(by: { $0.key < $1.key }) { print("  " + DeepSearch.afterSwapLine(program, swap)) }
            let width = TerminalStyle.columns
            func show(_ text: String, _ indent: String) {
                for line in FindingText.wrap(text, width: width, indent: indent, hanging: indent + "    ") { print(line) }
            }
            for finding in summary.findings where finding.rootCause == nil {
                found = true
                // The same words as every other finding (`Finding`): what is lost and when, the evidence, the cause
                // and the fix, wrapped at the terminal's width.
                let invariant = finding.violated.first.flatMap(InvariantRegistry.invariant(named:))
                show("CAUGHT \(finding.violated.joined(separator: ", ")) at \(finding.walk), N=\(finding.n): \(finding.operation)"
                     + (finding.afterSwap == true ? " (after the swap)" : ""), "  ")
                if let consequence = invariant?.consequence { show(consequence, "    ") }
                if let evidence = finding.evidence.first { show("e.g. " + FindingText.relativePaths(FindingText.firstSentence(evidence)), "    ") }
                if let cause = finding.cause { show("cause: \(FindingText.firstClause(cause))", "    ") }
                if let fix = invariant?.fix { show("fix: \(fix)", "    ") }
                if let repro = finding.repro { show("repro: lifeboat replay \(repro)", "    ") }
                if let shrunk = DeepSearch.shrinkLine(finding.shrink) { show(shrunk, "    ") }
            }
            // Findings of one known root cause: the cause and its fix once, then each point with its call and repro.
            for cause in summary.rootCauses ?? [] {
                found = true
                show("CAUGHT \(cause.points.count) finding(s) of one root cause (\(cause.name)): \(cause.title)", "  ")
                show("fix: \(cause.fix)", "    ")
                for finding in summary.findings where finding.rootCause == cause.name {
                    show("\(finding.violated.joined(separator: ", ")) at \(finding.walk), N=\(finding.n): \(finding.operation)", "    ")
                    if let why = finding.cause { show("cause: \(FindingText.firstClause(why))", "      ") }
                    if let repro = finding.repro { show("repro: lifeboat replay \(repro)", "      ") }
                    if let shrunk = DeepSearch.shrinkLine(finding.shrink) { show(shrunk, "      ") }
                }
            }
            for point in summary.hung ?? [] {
                found = true
                show("HUNG at \(point.walk), N=\(point.n): \(point.operation)", "  ")
                for evidence in point.evidence { show(FindingText.relativePaths(evidence), "    ") }
            }
            if summary.findings.isEmpty, (summary.hung ?? []).isEmpty, summary.incomplete == nil { print("  held at every point") }
            if let why = summary.incomplete { incomplete = why }
            print("  page: \(folder.path)/deep.md")
        }
        if summaries.count < seeds.count { print("seeds not searched: \(seeds.dropFirst(summaries.count).map(String.init).joined(separator: ", "))") }
        let command = "lifeboat try --deep --backup '\(backup)'" + (restore.map { " --restore '\($0)'" } ?? "") + " --seeds \(self.seeds)"
            + (budget.map { " --budget \($0)" } ?? "")
        let searched = summaries.map { (seed: $0.0, summary: $0.1, folder: $0.2) }
        try CIOutput.emit(CIOutput.findings(deep: searched, typed: .init(backup: backup, restore: restore), workingDirectory: workingDirectory),
                          verdicts: CIOutput.verdicts(deep: searched),
                          context: .init(command: command, category: "lifeboat-try-deep", reports: directory.url), options: ci)
        fflush(nil)
        if found { throw ExitCode(1) }
        if let incomplete { throw CLIFailure(code: 3, message: "incomplete (\(incomplete)); that is no pass") }
    }
}
