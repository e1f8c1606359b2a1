import Checks
import Foundation
import Reporting
import Scenario
import Strategies

/// `lifeboat matrix DIR`: every recipe (a subdirectory of DIR: one real backup tool, its wrapper scripts and one
/// scenario per situation) in every situation, over several seeds, with the version of each tool. A cell
/// "held" when no invariant was violated and no step or run failed in any seed; otherwise it was "caught", and
/// each failing seed gets a repro file that `lifeboat replay` reruns.
///
/// Its runs go through the one loop (`RunLoop`: `--jobs`, `--shard`); a shard's folder merges with the others'
/// (`MatrixMerge`, `lifeboat report merge`) into the folder one unsharded matrix writes.
public enum ToolMatrix {
    /// The order of the table's columns (the situations themselves are the files in `DIR/_situations/`; one not
    /// named here follows, sorted).
    public static let situationOrder = ["idle", "live-wal", "attachments", "readers-snapshots", "crash-during-backup",
                                        "crash-after-backup", "crash-after-restore", "damaged-backup", "restore-during-replication"]

    public struct Recipe: Sendable {
        public var tool: String
        public var directory: URL
        /// Situation name (the scenario file's name without .yaml) and the parsed scenario. `measured` is false
        /// for a situation the recipe has no file for: the situation itself runs with the recipe's scripts, and
        /// there is no expectation to meet (the table shows what it found; add the file with its `expect:`).
        public var situations: [(name: String, file: URL, scenario: Scenario, measured: Bool)]
        /// Whether the recipe runs its tool as a sidecar: then each situation it takes is a file of its own (a bare
        /// situation cannot arrange the schedule around the sidecar), and it has only those.
        public var runsSidecar: Bool { situations.contains { !$0.scenario.sidecars.isEmpty } }
        /// The versions the recipe pins (`_versions.yaml`), or nil: the tool is whatever PATH finds.
        public var versions: ToolVersions?
        /// The pinned version this recipe runs (a `recipe@version` row of `matrix --versions`); nil: the tool on
        /// PATH, the recipe's default (`scripts/venv.sh` puts it in `.venv/bin`).
        public var pinned: String?

        /// The name of the recipe's row: `litestream`, or `litestream@0.3.13` for one pinned version.
        public var row: String { pinned.map { "\(tool)@\($0)" } ?? tool }
    }

    public struct ToolInfo: Sendable, Codable, Equatable {
        /// The row's name: the recipe (`litestream`), or `recipe@version` for one pinned version.
        public var recipe: String
        public var version: String
        public var summary: String
        /// For a pinned version's row: the recipe folder's name and the version pinned (nil for a plain row).
        public var tool: String?
        public var pinned: String?
    }

    /// One recipe in one situation with one seed.
    public struct Run: Sendable, Codable, Equatable {
        public var seed: UInt64
        public var runID: String
        public var held: Bool
        public var violated: [String]
        /// Steps and sidecars that failed (not interrupted by the crash), and run errors.
        public var failures: [String]
        public var evidence: [String]
        /// Why a durability invariant was violated: the operations the crash dropped (`Verdict.cause`).
        public var cause: String?
        /// The app's own findings in this run (Core Data's behaviour: `app-durable`), with their first evidence:
        /// shown apart, never counted against the program.
        public var appsOwn: [String]?
        /// What to change: the first violated invariant's fix.
        public var fix: String?
        /// Every violated verdict of the run as a finding (the program's and the app's own), worst first
        /// (lifeboat.matrix/3).
        public var findings: [Finding]?
        public var crash: String?
        public var expectation: String
        public var expectationMet: Bool
        public var seconds: Double
        /// The run's report directory, relative to the matrix directory.
        public var report: String
        /// The repro file of a caught run, relative to the matrix directory.
        public var repro: String?
        /// With `--reproduce N`: how often the caught run's finding came back in N identical runs.
        public var reproduction: Reproduction?

        /// Why the run did not happen or judged nothing: the tool is not installed (its `version.sh` failed) or a
        /// program could not start. Such a run is neither held nor caught.
        public var notRun: String?
        /// The writers' longest commit while a backup or restore of the run ran, in seconds (`CommitStalls`); nil
        /// when no commit overlapped one.
        public var longestStall: Double?

        /// A run that never started: the recipe's tool is missing.
        static func notRun(seed: UInt64, expectation: String, reason: String) -> Run {
            Run(seed: seed, runID: "", held: false, violated: [], failures: [], evidence: [], crash: nil, expectation: expectation,
                expectationMet: false, seconds: 0, report: "", repro: nil, notRun: reason)
        }
    }

    public struct Cell: Sendable, Codable, Equatable {
        public var recipe: String
        public var situation: String
        public var scenario: String
        public var runs: [Run]
        /// Why the situation could not exercise what it is about on this store, so it was not run (`lifeboat try
        /// --store` on a store with no attribute that allows external storage: no attachments to carry). Such a
        /// cell is neither held nor caught nor "not run": nothing was wrong, and nothing was shown either.
        public var notExercised: String?
        public var held: Bool { notExercised == nil && runs.allSatisfy(\.held) }
        /// Runs that ran and found something (a not-run run is neither held nor caught).
        public var caughtRuns: [Run] { runs.filter { !$0.held && $0.notRun == nil } }
        public var notRunRuns: [Run] { runs.filter { $0.notRun != nil } }
        public var caught: Bool { !caughtRuns.isEmpty }
        /// Not caught, but some seed did not run: the cell is incomplete.
        public var isNotRun: Bool { !caught && !notRunRuns.isEmpty }
        public var violated: [String] {
            ScenarioParser.invariantNames.filter { name in runs.contains { $0.violated.contains(name) } }
        }
        /// The longest stall of any of its runs.
        public var longestStall: Double? { runs.compactMap(\.longestStall).max() }
    }

    public struct Result: Sendable, Codable {
        public var schema = "lifeboat.matrix/3"
        public var matrixID: String
        public var directory: String
        public var command: String
        public var startedAt: String
        public var seconds: Double
        public var seeds: [UInt64]
        public var tools: [ToolInfo]
        public var situations: [String]
        /// What each situation does: the leading comment of `DIR/_situations/<name>.yaml`, where there is one.
        public var situationNotes: [String: String] = [:]
        /// `DIR/_notes.md`, where there is one: how to read the table.
        public var notes: String?
        public var cells: [Cell]
        /// Recipes whose tool is not installed (`version.sh` failed), with the reason and the fix.
        public var environmentErrors: [String] = []
        /// With `--versions`: each recipe and situation whose outcome differs between the recipe's pinned versions.
        public var versionChanges: [VersionChange] = []
        /// The whole matrix's cases and which shard this folder ran (`--shard`), for `lifeboat report merge`; nil
        /// in a matrix.json of an older build.
        public var plan: ShardPlan?
        /// Every run that ran showed its recipe's expectation (runs not run are counted apart).
        public var expectationsMet: Bool { cells.allSatisfy { $0.runs.allSatisfy { $0.expectationMet || $0.notRun != nil } } }
        public var notRunCount: Int { cells.filter(\.isNotRun).count }
    }

    public enum MatrixError: Error, CustomStringConvertible {
        case badInput(String)
        case environment(String)
        public var description: String {
            switch self {
            case .badInput(let message), .environment(let message): message
            }
        }
    }

    /// The recipes under `directory`: each subdirectory not starting with `_` or `.` that holds scenario files or
    /// a `backup.sh`; each recipe gets every situation of `directory/_situations` it has no file for.
    /// A bad scenario file is a `ScenarioError` (file:line:column).
    public static func discover(_ directory: URL) throws -> [Recipe] {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory), isDirectory.boolValue else {
            throw MatrixError.badInput("\(directory.path): not a directory of tool recipes")
        }
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path).sorted()
        var recipes: [Recipe] = []
        for name in names where !name.hasPrefix("_") && !name.hasPrefix(".") {
            let folder = directory.appendingPathComponent(name)
            guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory), isDirectory.boolValue else { continue }
            let files = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }
            // A recipe: scenario files of its own, or only its scripts (then every situation runs with them).
            guard !files.isEmpty || FileManager.default.fileExists(atPath: folder.appendingPathComponent("backup.sh").path) else { continue }
            var situations = try files.map { file -> (String, URL, Scenario, Bool) in
                let url = folder.appendingPathComponent(file)
                return (String(file.dropLast(".yaml".count)), url, try ScenarioParser.parse(file: url), true)
            }
            // Every situation of DIR/_situations the recipe has no file for, with the recipe's scripts; not for a
            // recipe that runs a sidecar (its scenarios arrange the schedule around it, which a bare situation cannot).
            if !situations.contains(where: { !$0.2.sidecars.isEmpty }) {
                for (situation, file) in try situationFiles(in: directory) where !situations.contains(where: { $0.0 == situation }) {
                    var scenario = try ScenarioParser.parse(file: file, defaultName: "\(name)-\(situation)")
                    scenario.name = "\(name)-\(situation)"
                    scenario.description = "\(situation): the situation with the recipe's backup.sh and restore.sh (no recipe file for it)"
                    situations.append((situation, folder.appendingPathComponent("\(situation).yaml"), scenario, false))
                }
            }
            recipes.append(Recipe(tool: name, directory: folder, situations: situations.sorted { order($0.0) < order($1.0) },
                                  versions: try ToolVersions.load(recipe: folder)))
        }
        guard !recipes.isEmpty else {
            throw MatrixError.badInput("\(directory.path) holds no recipes (subdirectories with scenario files)")
        }
        return recipes
    }

    /// The situations: `DIR/_situations/<name>.yaml`, by name, in table order (none when there is no such folder).
    public static func situationFiles(in directory: URL) throws -> [(name: String, file: URL)] {
        let folder = directory.appendingPathComponent("_situations")
        guard FileManager.default.fileExists(atPath: folder.path) else { return [] }
        return try FileManager.default.contentsOfDirectory(atPath: folder.path).filter { $0.hasSuffix(".yaml") }
            .map { (String($0.dropLast(".yaml".count)), folder.appendingPathComponent($0)) }
            .sorted { order($0.0) < order($1.0) }
    }

    static func order(_ situation: String) -> (Int, String) {
        (situationOrder.firstIndex(of: situation) ?? situationOrder.count, situation)
    }

    /// The tool's version: the first line `version.sh` in the recipe prints. A tool that is not installed is an
    /// environment error (set up with scripts/setup.sh): the recipe's cells are "not run", never caught.
    public static func version(of recipe: Recipe) throws -> String {
        let script = recipe.directory.appendingPathComponent("version.sh")
        guard FileManager.default.fileExists(atPath: script.path) else { return "(no version.sh in the recipe)" }
        let environment = recipe.pinned.map { [versionVariable: $0] } ?? [:]
        let result = try ChildProcess.run(URL(fileURLWithPath: "/bin/sh"), arguments: [script.path], environment: environment, timeout: 30)
        let line = result.output.split(separator: "\n").first.map { $0.trimmingCharacters(in: .whitespaces) } ?? ""
        guard result.status == 0, !line.isEmpty else {
            let said = result.output.trimmingCharacters(in: .whitespacesAndNewlines).suffix(300)
            throw MatrixError.environment("\(recipe.row) is not installed: `sh \(script.path)` failed with status \(result.status)"
                                          + (said.isEmpty ? "" : " (\(said))") + (said.contains("scripts/") ? "" : "; run scripts/setup.sh"))
        }
        return line
    }

    /// Runs every recipe in every situation with every seed; run reports go to `<matrix>/runs/`, repro files of
    /// caught runs to `<matrix>/repros/`. A situation named in `notExercised` is not run: its cell says why.
    public static func run(_ recipes: [Recipe], seeds: [UInt64], matrix: RunDirectory, settings: ScenarioRunner.Settings,
                           command: String, directory: String, reproduce: Int = 0, notExercised: [String: String] = [:],
                           jobs: Int = 1, shard: Shard? = nil, log: @escaping @Sendable (String) -> Void) throws -> Result {
        let started = Date()
        let startedAt = ISO8601DateFormatter().string(from: started)
        var tools: [ToolInfo] = []
        var missing: [String: String] = [:]
        for recipe in recipes {
            let summary = (try? String(contentsOf: recipe.directory.appendingPathComponent("recipe.md"), encoding: .utf8))?
                .split(separator: "\n").first.map(String.init) ?? recipe.situations.first.map { summaryOf($0.scenario.description) } ?? ""
            let version: String
            do { version = try Self.version(of: recipe) } catch let MatrixError.environment(reason) {
                missing[recipe.row] = reason
                log("\(recipe.row): NOT RUN: \(reason)")
                version = "not installed"
            }
            tools.append(ToolInfo(recipe: recipe.row, version: version, summary: summary,
                                  tool: recipe.pinned == nil ? nil : recipe.tool, pinned: recipe.pinned))
        }
        var settings = settings
        settings.reportsRoot = matrix.url.appendingPathComponent("runs")
        let runSettings = settings
        let repros = matrix.url.appendingPathComponent("repros")
        try FileManager.default.createDirectory(at: repros, withIntermediateDirectories: true)
        let cases = Self.cases(recipes, seeds: seeds, notExercised: notExercised)
        let plan = Self.plan(recipes, cases: cases, shard: shard)
        let missingNow = missing
        // Each case is one run (or a cell not exercised, or a seed of a tool not installed); RunLoop runs this
        // shard's, at most `jobs` at a time, and gives the rows back in the cases' order.
        let rows = try RunLoop(jobs: jobs, shard: shard).map(cases) { item, _ -> Run? in
            let recipe = recipes[item.recipe], situation = recipe.situations[item.situation]
            guard let seed = item.seed else {
                log("\(recipe.row) \(situation.name): not exercised: \(notExercised[situation.name] ?? "")")
                return nil
            }
            if Interruption.requested { throw RunError.interrupted }
            if let reason = missingNow[recipe.row] {
                return .notRun(seed: seed, expectation: situation.scenario.expect.description, reason: reason)
            }
            return try Self.runOne(recipe, situation: situation, seed: seed, matrix: matrix, repros: repros, reproduce: reproduce,
                                   settings: runSettings, log: log)
        }
        var cells: [Cell] = []
        for (item, run) in zip(RunLoop(shard: shard).slice(cases), rows) {
            let recipe = recipes[item.recipe], situation = recipe.situations[item.situation]
            if cells.last.map({ $0.recipe != recipe.row || $0.situation != situation.name }) ?? true {
                cells.append(Cell(recipe: recipe.row, situation: situation.name, scenario: situation.scenario.name, runs: []))
            }
            if let run { cells[cells.count - 1].runs.append(run) } else { cells[cells.count - 1].notExercised = notExercised[situation.name] }
        }
        var situations: [String] = []
        for cell in cells where !situations.contains(cell.situation) { situations.append(cell.situation) }
        let root = URL(fileURLWithPath: directory)
        var notes: [String: String] = [:]
        for situation in situations {
            let text = (try? String(contentsOf: root.appendingPathComponent("_situations/\(situation).yaml"), encoding: .utf8)) ?? ""
            let comment = text.split(separator: "\n", omittingEmptySubsequences: false).prefix { $0.hasPrefix("#") }
                .map { $0.dropFirst().trimmingCharacters(in: .whitespaces) }.joined(separator: " ")
            if !comment.isEmpty { notes[situation] = comment }
        }
        var result = Result(matrixID: matrix.id, directory: directory, command: command, startedAt: startedAt,
                      seconds: Date().timeIntervalSince(started), seeds: seeds, tools: tools,
                      situations: situations.sorted { order($0) < order($1) }, situationNotes: notes,
                      notes: try? String(contentsOf: root.appendingPathComponent("_notes.md"), encoding: .utf8), cells: cells,
                      environmentErrors: missing.sorted { $0.key < $1.key }.map(\.value))
        result.versionChanges = versionChanges(result)
        result.plan = plan
        return result
    }

    /// One case of the matrix: a recipe in a situation with a seed, or (seed nil) a cell not exercised.
    struct Case: Sendable {
        var recipe: Int
        var situation: Int
        var seed: UInt64?
    }

    /// The matrix's cases in the table's order: recipe by recipe, situation by situation, seed by seed.
    static func cases(_ recipes: [Recipe], seeds: [UInt64], notExercised: [String: String]) -> [Case] {
        recipes.indices.flatMap { r in
            recipes[r].situations.indices.flatMap { s -> [Case] in
                notExercised[recipes[r].situations[s].name] != nil ? [Case(recipe: r, situation: s, seed: nil)]
                    : seeds.map { Case(recipe: r, situation: s, seed: $0) }
            }
        }
    }

    /// A case's key in the plan: "recipe situation seed N", or "recipe situation not exercised".
    static func key(_ recipe: String, _ situation: String, seed: UInt64?) -> String {
        "\(recipe) \(situation) " + (seed.map { "seed \($0)" } ?? "not exercised")
    }

    /// The plan a shard folder records (`ShardPlan`): the case keys, and each situation's scenario by content.
    static func plan(_ recipes: [Recipe], cases: [Case], shard: Shard?) -> ShardPlan {
        let content = recipes.flatMap { recipe in
            recipe.situations.map { "\(recipe.row) \($0.name) \(Campaign.fingerprint($0.scenario)) \($0.measured)" }
        }
        let keys = cases.map { key(recipes[$0.recipe].row, recipes[$0.recipe].situations[$0.situation].name, seed: $0.seed) }
        return ShardPlan(kind: "matrix", cases: keys, content: content, shard: shard)
    }

    /// One recipe in one situation with one seed: the run, its row, and a repro file when it was caught.
    static func runOne(_ recipe: Recipe, situation: (name: String, file: URL, scenario: Scenario, measured: Bool), seed: UInt64,
                       matrix: RunDirectory, repros: URL, reproduce: Int, settings runSettings: ScenarioRunner.Settings,
                       log: @Sendable (String) -> Void) throws -> Run {
        var scenario = situation.scenario
        scenario.seed = seed
        let outcome = try ScenarioRuns.run(scenario, file: situation.file.path, settings: runSettings)
        let (result, runDirectory) = (outcome.result, outcome.directory)
        if Interruption.requested { throw RunError.interrupted }
        var run = summarize(result, seed: seed, report: "runs/\(runDirectory.id)")
        if !situation.measured {
            run.expectation = "none (no recipe file for this situation)"
            run.expectationMet = true
        } else if let pinned = recipe.pinned, let versions = recipe.versions, pinned != versions.defaultVersion {
            // A recipe's `expect:` is about its default version; another version shows what it shows.
            run.expectation = "none (\(pinned) is not the recipe's default version, \(versions.defaultVersion))"
            run.expectationMet = true
        }
        if run.notRun == nil, !run.held {
            let name = "\(recipe.row)-\(situation.name)-seed\(seed).yaml"
            try Data(renderRepro(scenario, recipeFile: situation.file, violated: run.violated, reproDirectory: nil,
                                 note: "lifeboat matrix \(matrix.id): \(recipe.row) in \(situation.name), seed \(seed)").utf8)
                .write(to: repros.appendingPathComponent(name))
            run.repro = "repros/\(name)"
            run.reproduction = try FindingReplay.rate(of: result, scenario: scenario, file: situation.file.path,
                                                      times: reproduce, settings: runSettings)
        }
        log(String(format: "%@ %@ seed %llu: %@%@ (%.1f s)", recipe.row, situation.name, seed,
                   run.notRun.map { "NOT RUN: \($0)" } ?? (run.held ? "held" : "CAUGHT " + (run.violated + run.failures.map { _ in "step failed" }).joined(separator: ", ")
                       + (run.reproduction.map { ", \($0.text)" } ?? "")),
                   run.expectationMet || run.notRun != nil ? "" : " [not the recipe's expectation: \(run.expectation)]", run.seconds))
        return run
    }

    /// What one run showed: the invariants violated, and the steps or sidecars that failed on their own.
    static func summarize(_ result: RunResult, seed: UInt64, report: String) -> Run {
        if let reason = result.environmentError {
            var run = Run.notRun(seed: seed, expectation: result.expectation, reason: reason)
            (run.runID, run.seconds, run.report) = (result.runID, result.seconds, report)
            return run
        }
        let violated = result.verdicts.filter { $0.status == .violated && !$0.isAppsOwn }
        let appsOwn = result.verdicts.filter { $0.status == .violated && $0.isAppsOwn }
            .map { "\($0.invariant): \(($0.evidence.first ?? $0.summary).prefix(300))" }
        // A restore that refused a damaged backup did what `restore-detects-damage` asks: not a failure.
        let damaged = (result.damages ?? []).filter(\.applied)
        let refused = Set(result.operations.filter { op in
            !op.succeeded && damaged.contains { $0.target == op.details["restoredFrom"] && $0.at <= op.start }
        }.map(\.name))
        var failures = result.operations.filter { !$0.succeeded && $0.error != "interrupted by the crash" && $0.action != "backup" && !refused.contains($0.name) }
            .map { "\($0.name) (\($0.action == "sidecar" ? "sidecar" : $0.strategy)) failed: \(($0.error ?? "").trimmingCharacters(in: .whitespacesAndNewlines).prefix(240))" }
        failures += result.errors.map { "run error: \($0.prefix(240))" }
        let evidence = violated.map { verdict in "\(verdict.invariant): \(verdict.evidence.first ?? verdict.summary)" }
        let crash = result.events.first { $0.kind == .crash }?.detail
        var run = Run(seed: seed, runID: result.runID, held: violated.isEmpty && failures.isEmpty, violated: violated.map(\.invariant),
                      failures: failures, evidence: evidence.map { String($0.prefix(400)) },
                      cause: violated.compactMap(\.cause).first.map { String($0.prefix(800)) }, crash: crash,
                      expectation: result.expectation, expectationMet: result.expectationMet, seconds: result.seconds,
                      report: report, repro: nil)
        run.appsOwn = appsOwn.isEmpty ? nil : appsOwn
        run.fix = violated.compactMap(\.fix).first
        let findings = Finding.of(result.verdicts)
        run.findings = findings.isEmpty ? nil : findings
        run.longestStall = result.stalls?.compactMap(\.longest).max()
        return run
    }

    /// A repro of a caught run: the scenario with its seed, expecting the first invariant it violated, and its
    /// scripts named by their absolute path (as every run's repro.yaml, `RunReports.replayable`), so the file
    /// replays when copied to any folder of the machine; or, with `reproDirectory` (a repro published in the
    /// project's docs), relative to where the repro file lives (`$LIFEBOAT_SCENARIO_DIR` is the repro's
    /// directory when it is replayed), so it replays from any clone of the project.
    public static func renderRepro(_ scenario: Scenario, recipeFile: URL, violated: [String], reproDirectory: URL?, note: String) -> String {
        var copy = scenario
        if let first = violated.first { copy.expect = .violation(first) }
        let header = "# \(note)\n# Replay: lifeboat replay <this file>\(violated.isEmpty ? " (a step failed; no invariant was violated)" : "")\n"
        guard let reproDirectory else { return header + ScenarioYAML.render(RunReports.replayable(copy, file: recipeFile.path)) }
        let relative = relativePath(from: reproDirectory, to: recipeFile.deletingLastPathComponent())
        func pin(_ command: String) -> String {
            command.replacingOccurrences(of: "${LIFEBOAT_SCENARIO_DIR}", with: "$LIFEBOAT_SCENARIO_DIR")
                .replacingOccurrences(of: "$LIFEBOAT_SCENARIO_DIR", with: "$LIFEBOAT_SCENARIO_DIR/\(relative)")
        }
        for index in copy.schedule.indices { copy.schedule[index].command = copy.schedule[index].command.map(pin) }
        for index in copy.sidecars.indices { copy.sidecars[index].command = pin(copy.sidecars[index].command) }
        return header + ScenarioYAML.render(copy)
    }

    /// `to` relative to the directory `from` (both made absolute and standardized).
    public static func relativePath(from: URL, to: URL) -> String {
        let a = from.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        let b = to.standardizedFileURL.resolvingSymlinksInPath().pathComponents
        var common = 0
        while common < min(a.count, b.count), a[common] == b[common] { common += 1 }
        let parts = Array(repeating: "..", count: a.count - common) + b[common...]
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }

    /// Without a recipe.md: the part of a situation scenario's description after "situation: ".
    static func summaryOf(_ description: String) -> String {
        guard let colon = description.firstIndex(of: ":") else { return description }
        return description[description.index(after: colon)...].trimmingCharacters(in: .whitespaces)
    }
}
