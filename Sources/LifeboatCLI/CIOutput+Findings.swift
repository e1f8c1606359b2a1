import Checks
import Explore
import Foundation
import Reporting
import Runner
import Scenario

/// Each command's results as `CIFinding`s, and its one-line verdicts, for `CIOutput.emit`. The findings are the
/// ones the command prints, in its grouping: `try` and `matrix` one per invariant (per recipe), over situations and
/// seeds (`TryProgram.findings`); `run` one per scenario and invariant over seeds; `try --deep` one per point.
extension CIOutput {
    /// The program a matrix or `try` finding blames, as the user names it: `try`'s command lines as typed; nil for
    /// the matrix (a recipe's row).
    struct TypedProgram {
        var backup: String
        var restore: String?
    }

    /// `try` (one recipe, `typed` given) and `matrix` (every recipe): per recipe, each finding once, worst first.
    static func findings(matrix result: ToolMatrix.Result, recipes: [ToolMatrix.Recipe], folder: URL, typed: TypedProgram?,
                         workingDirectory: URL) -> [CIFinding] {
        var all: [CIFinding] = []
        for recipe in recipes {
            var sub = result
            sub.cells = result.cells.filter { $0.recipe == recipe.row }
            let grouped = TryProgram.findings(sub, appsOwn: false) + TryProgram.findings(sub, appsOwn: true)
            for item in grouped {
                let name = item.finding.invariant
                let cells = sub.cells.filter { cell in cell.runs.contains { $0.findings?.contains { $0.invariant == name } == true } }
                let cause = fullCause(of: name, in: cells, folder: folder) ?? item.finding.cause
                let restore = CIOutput.blamesRestore(name, cause: cause)
                let situation = recipes.count > 1 || typed == nil ? "\(recipe.row) " : ""
                let file = recipe.situations.first { $0.name == cells.first?.situation }
                let step = file?.scenario.schedule.first { $0.action == (restore ? .restore : .backup) && $0.command != nil }
                let program: String
                var programFile: String?
                var scenarioFile: String?
                var scenarioLine: Int?
                if let typed {
                    program = restore ? (typed.restore ?? typed.backup) : typed.backup
                    programFile = CIOutput.programFile(program, scenarioDirectory: nil, workingDirectory: workingDirectory)
                } else {
                    program = recipe.row
                    if let command = step?.command {
                        programFile = CIOutput.programFile(command, scenarioDirectory: file?.file.deletingLastPathComponent(),
                                                           workingDirectory: workingDirectory)
                    }
                    // A situation the recipe has no file for runs the shared one with the recipe's scripts: no
                    // scenario file of the recipe's to point at.
                    if let file, FileManager.default.fileExists(atPath: file.file.path) {
                        scenarioFile = shown(file.file.path, from: workingDirectory)
                        scenarioLine = (try? String(contentsOf: file.file, encoding: .utf8)).flatMap {
                            CIFinding.stepLine(restore ? "restore" : "backup", in: $0)
                        }
                    }
                }
                all.append(CIFinding(finding: item.finding, situation: situation + cells.map(\.situation).joined(separator: ","),
                                     place: situation + item.situations, program: program, programFile: programFile,
                                     scenarioFile: scenarioFile, scenarioLine: scenarioLine,
                                     repro: item.repros.first.map { "lifeboat replay " + shown(folder.appendingPathComponent($0).path, from: workingDirectory) },
                                     cause: cause))
            }
        }
        return all
    }

    /// The whole cause of the first run in `cells` whose verdict of `invariant` has one, from its report.json
    /// (the matrix keeps only the first clause of it).
    static func fullCause(of invariant: String, in cells: [ToolMatrix.Cell], folder: URL) -> String? {
        for cell in cells {
            for run in cell.runs where run.findings?.contains(where: { $0.invariant == invariant }) == true && !run.report.isEmpty {
                let url = folder.appendingPathComponent(run.report).appendingPathComponent("report.json")
                guard let data = try? Data(contentsOf: url), let report = try? JSONDecoder().decode(RunResult.self, from: data) else { continue }
                if let cause = report.verdicts.first(where: { $0.invariant == invariant && $0.status == .violated })?.cause { return cause }
            }
        }
        return nil
    }

    /// The matrix's one line per cell: "rsync live-wal: CAUGHT wal-content-carried (2/3 seeds)".
    static func verdicts(matrix result: ToolMatrix.Result) -> [String] {
        result.cells.map { cell in
            let head = "\(cell.recipe) \(cell.situation): "
            if cell.caught {
                return head + "CAUGHT \(cell.violated.isEmpty ? "a step failed" : cell.violated.joined(separator: ", ")) (\(cell.caughtRuns.count)/\(cell.runs.count) seeds)"
            }
            if let reason = cell.notExercised { return head + "not exercised: \(FindingText.firstSentence(reason))" }
            if cell.isNotRun { return head + "NOT RUN: \(FindingText.firstSentence(cell.notRunRuns.first?.notRun ?? ""))" }
            return head + "held (\(cell.runs.count) seed\(cell.runs.count == 1 ? "" : "s"))"
        }
    }

    /// One run of `run` (alone or in a campaign): its scenario, its file and its report folder.
    struct ScenarioRun {
        var result: RunResult
        var scenario: Scenario?
        var file: URL
        var directory: URL
    }

    /// `run`'s findings: the violated verdicts of every run that did not show what it expects (a pitfall drill
    /// that shows its pitfall is no alert), one per scenario and invariant over its seeds, worst first.
    static func findings(runs: [ScenarioRun], workingDirectory: URL) -> [CIFinding] {
        var order: [String] = []
        var first: [String: (run: ScenarioRun, verdict: Verdict)] = [:]
        var seeds: [String: [UInt64]] = [:]
        for run in runs where !run.result.expectationMet && run.result.environmentError == nil {
            for verdict in Verdict.ranked(run.result.verdicts) where verdict.status == .violated {
                let key = run.result.scenario + "\n" + verdict.invariant
                if first[key] == nil { order.append(key) }
                if first[key] == nil || (first[key]?.verdict.cause == nil && verdict.cause != nil) { first[key] = (run, verdict) }
                if seeds[key]?.contains(run.result.seed) != true { seeds[key, default: []].append(run.result.seed) }
            }
        }
        return order.compactMap { key in
            guard let (run, verdict) = first[key] else { return nil }
            let restore = CIOutput.blamesRestore(verdict.invariant, cause: verdict.cause)
            let step = run.scenario?.schedule.first { $0.action == (restore ? .restore : .backup) }
                ?? run.scenario?.schedule.first { $0.action == .backup || $0.action == .restore }
            let program = step.map { $0.command ?? "\($0.action) strategy \($0.strategy)" } ?? run.result.scenario
            let text = try? String(contentsOf: run.file, encoding: .utf8)
            let list = seeds[key, default: []]
            return CIFinding(finding: Finding(verdict), situation: run.result.scenario,
                             place: "\(run.result.scenario) (seed\(list.count == 1 ? "" : "s") \(list.map(String.init).joined(separator: ", ")))",
                             program: program,
                             programFile: step?.command.flatMap { CIOutput.programFile($0, scenarioDirectory: run.file.deletingLastPathComponent(),
                                                                                        workingDirectory: workingDirectory) },
                             scenarioFile: shown(run.file.path, from: workingDirectory),
                             scenarioLine: text.flatMap { CIFinding.stepLine(step?.action.rawValue ?? "backup", in: $0) },
                             repro: "lifeboat replay " + shown(run.directory.appendingPathComponent("repro.yaml").path, from: workingDirectory),
                             cause: verdict.cause)
        }
    }

    /// `run`'s one line per run: "live-wal-drill seed 3: UNEXPECTED (expected pass): wal-content-carried".
    static func verdicts(runs: [ScenarioRun]) -> [String] {
        runs.map { run in
            let result = run.result
            let head = "\(result.scenario) seed \(result.seed): "
            if let reason = result.environmentError { return head + "NOT RUN: \(FindingText.firstSentence(reason))" }
            let violated = result.verdicts.filter { $0.status == .violated }.map(\.invariant)
            return head + (result.expectationMet ? "as expected" : "UNEXPECTED") + " (expected \(result.expectation))"
                + (violated.isEmpty ? "" : ": violated \(violated.joined(separator: ", "))")
        }
    }

    /// A campaign's runs that ran, read back from the suite folder (each run's report.json), with their scenarios.
    static func runs(of summary: SuiteSummary, folder: URL, drills: [(URL, Scenario)]) -> [ScenarioRun] {
        summary.entries.compactMap { entry in
            guard let ref = entry.run else { return nil }
            let directory = folder.appendingPathComponent(ref.path)
            guard let data = try? Data(contentsOf: directory.appendingPathComponent("report.json")),
                  let result = try? JSONDecoder().decode(RunResult.self, from: data) else { return nil }
            let drill = drills.first { $0.1.name == entry.scenario }
            return ScenarioRun(result: result, scenario: drill?.1, file: drill?.0 ?? URL(fileURLWithPath: result.scenarioFile), directory: directory)
        }
    }

    /// `try --deep`'s findings: one per point (walk and call) over the seeds it came back on, the program's own.
    static func findings(deep: [(seed: UInt64, summary: DeepSearch.Summary, folder: URL)], typed: TypedProgram,
                         workingDirectory: URL) -> [CIFinding] {
        var items: [CIFinding] = []
        var seedsOf: [String: [UInt64]] = [:]
        for (seed, summary, _) in deep {
            for point in summary.findings {
                guard let name = point.violated.first else { continue }
                let invariant = InvariantRegistry.invariant(named: name)
                let finding = Finding(invariant: name, consequence: invariant?.consequence ?? name, severity: invariant?.severity ?? .cost,
                                      evidence: point.evidence.first.map { FindingText.relativePaths(FindingText.firstSentence($0)) },
                                      cause: point.cause.map(FindingText.firstClause),
                                      // A known root cause's standard fix is the one to make (`DeepSearch+RootCauses.swift`).
                                      fix: point.rootCause.flatMap { name in summary.rootCauses?.first { $0.name == name }?.fix } ?? invariant?.fix,
                                      appsOwn: false)
                let restore = CIOutput.blamesRestore(name, cause: point.cause) || point.operation.contains(" by restore-")
                let program = restore ? (typed.restore ?? typed.backup) : typed.backup
                let situation = "deep \(point.walk) at \(CIFinding.stable(point.operation))"
                var item = CIFinding(finding: finding, situation: situation, program: program,
                                     programFile: CIOutput.programFile(program, scenarioDirectory: nil, workingDirectory: workingDirectory),
                                     repro: point.repro.map { "lifeboat replay " + shown($0, from: workingDirectory) }, cause: point.cause)
                if let index = items.firstIndex(where: { $0.fingerprint == item.fingerprint }) {
                    seedsOf[item.fingerprint, default: []].append(seed)
                    items[index].place = "--deep \(point.walk), N=\(point.n) (\(point.operation)), seeds \(seedsOf[item.fingerprint, default: []].map(String.init).joined(separator: ", "))"
                    continue
                }
                seedsOf[item.fingerprint] = [seed]
                item.place = "--deep \(point.walk), N=\(point.n) (\(point.operation)), seed \(seed)"
                items.append(item)
            }
        }
        return items
    }

    /// `try --deep`'s one line per seed: what was covered and how many findings.
    static func verdicts(deep: [(seed: UInt64, summary: DeepSearch.Summary, folder: URL)]) -> [String] {
        deep.map { seed, summary, _ in
            "seed \(seed): \(DeepSearch.coverage(summary)); " + (summary.findings.isEmpty ? (summary.incomplete.map { "incomplete: \($0)" }
                ?? ((summary.hung ?? []).isEmpty ? "held at every point" : "HUNG at \(summary.hung?.count ?? 0) point(s)"))
                : "CAUGHT \(summary.findings.count) point(s)" + ((summary.hung ?? []).isEmpty ? "" : ", HUNG at \(summary.hung?.count ?? 0)"))
        }
    }
}
