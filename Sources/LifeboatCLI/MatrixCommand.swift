import ArgumentParser
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat matrix DIR --seeds 1-5`: every tool recipe in every situation (`Scenarios/tools`), a table of held
/// and caught cells with the tool versions (with `--versions`, one row per version a recipe pins), as Markdown, JSON and HTML in reports/<matrix-id>/. Exit 0 when every
/// run showed its recipe's expectation, 1 when one did not, 2 for bad input or a tool that is not installed (its
/// cells are "not run"), 3 when a program could not start in some run (those cells are "not run").
struct MatrixCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "matrix",
        abstract: "Run every tool recipe in every situation and write the compatibility matrix (Markdown, JSON, HTML).")

    @Argument(help: "A directory of recipes: one subdirectory per tool, one scenario file per situation.") var directory: String
    @Option(help: "Seeds: ranges and lists, as `run --seeds` takes them (1-5, 1,4,9, 7).") var seeds = "1"
    @Option(help: "Only these recipes (comma-separated subdirectory names).") var only: String?
    @Option(help: ArgumentHelp("Runs at a time: a number, or `cores`. The page and the verdicts are the runs' own, in the same order at any value; runs whose verdict depends on the machine's pace may see a busier machine.", valueName: "n"))
    var jobs: String = "1"
    @Option(help: ArgumentHelp("Run only the K-th of N slices of the matrix's runs (every N-th, from the K-th); `lifeboat report merge` the N folders into the whole matrix.", valueName: "K/N"))
    var shard: String?
    @Option(help: "Where reports go (reports/<matrix-id>/).") var reports: String = "reports"
    @Option(help: "Scratch directory for stores.") var scratch: String?
    @Option(help: "Replay each caught run N more times and show how often its finding came back (reproduced k/N); 0 replays nothing.")
    var reproduce: Int = 0
    @Flag(help: ArgumentHelp("Run every version a recipe pins (its _versions.yaml) as a row of its own, recipe@version, and show where a finding appears or goes away.",
                             discussion: "Each version comes from .venv/tools/<package>-<version>/ (scripts/tool-versions.sh installs them); one that is not installed is an environment error (its row is not run, exit 2). Without --versions a recipe runs its default version, the one on PATH."))
    var versions = false
    @Option(help: "Also write the Markdown table here (e.g. docs/real-tools.md), with its repro files in a folder beside it.")
    var out: String?
    @OptionGroup var ci: CIOutputOptions

    func validate() throws {
        guard (0...100).contains(reproduce) else { throw ValidationError("--reproduce must be between 0 and 100") }
        _ = try shardValue()
        if shard != nil, out != nil { throw ValidationError("--out publishes the whole matrix; a shard has a slice of it (run without --shard to publish)") }
    }

    func run() throws {
        let seedList: [UInt64]
        do { seedList = try SeedList(seeds).seeds } catch let error as SeedList.ParseError { throw CLIFailure.badInput(error.message) }
        var recipes: [ToolMatrix.Recipe]
        do { recipes = try ToolMatrix.discover(URL(cliPath: directory)) } catch let error as ScenarioError {
            throw CLIFailure.badInput(error.description)
        } catch { throw CLIFailure.badInput("\(error)") }
        if let only {
            let wanted = only.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            for name in wanted where !recipes.contains(where: { $0.tool == name }) {
                throw CLIFailure.badInput("--only: no recipe named \(name) in \(directory) (have \(recipes.map(\.tool).joined(separator: ", ")))")
            }
            recipes = recipes.filter { wanted.contains($0.tool) }
        }
        if versions { recipes = ToolMatrix.expandingVersions(recipes) }
        let settings = ScenarioCommandSupport.settings(reports: reports, scratch: scratch)
        Interruption.install()
        let matrix = try RunDirectory.create(root: URL(cliPath: reports), prefix: "matrix-")
        let command = "lifeboat matrix \(directory) --seeds \(seeds)" + (only.map { " --only \($0)" } ?? "") + (versions ? " --versions" : "") + (reproduce > 0 ? " --reproduce \(reproduce)" : "")
        print("matrix \(matrix.id): \(recipes.count) recipe(s) x situations x \(seedList.count) seed(s)" + (shard.map { ", shard \($0)" } ?? ""))
        let result: ToolMatrix.Result
        do {
            let all = recipes.reduce(0) { $0 + $1.situations.count } * seedList.count
            let progress = Progress(total: try shardValue()?.share(of: all) ?? all, label: "runs")
            defer { progress.finish() }
            result = try ToolMatrix.run(recipes, seeds: seedList, matrix: matrix, settings: settings, command: command,
                                        directory: directory, reproduce: reproduce, jobs: try jobCount(), shard: try shardValue()) { line in progress.step(line) }
        } catch let error as ToolMatrix.MatrixError {
            throw CLIFailure.badInput(error.description)
        } catch RunError.interrupted {
            throw CLIFailure(code: Interruption.exitCode, message: "interrupted; partial runs in \(matrix.url.path)")
        }
        try ToolMatrixReport.write(result, to: matrix)
        try matrix.markLatest()
        if let out { try ToolMatrixReport.publish(result, to: URL(cliPath: out)) }
        try CIOutput.emit(CIOutput.findings(matrix: result, recipes: recipes, folder: matrix.url, typed: nil,
                                            workingDirectory: URL(fileURLWithPath: FileManager.default.currentDirectoryPath)),
                          verdicts: CIOutput.verdicts(matrix: result), context: .init(command: command, category: "lifeboat-matrix", reports: matrix.url),
                          options: ci)
        let caught = result.cells.filter(\.caught).count
        let notRun = result.notRunCount
        print("\(result.cells.filter(\.held).count) cell(s) held, \(caught) caught, \(notRun) not run; \(matrix.url.path)/matrix.md" + (out.map { ", \($0)" } ?? ""))
        if !result.expectationsMet {
            print("some runs differ from their recipe's expectation (listed at the end of matrix.md)")
            throw ExitCode(1)
        }
        // A tool that is not installed is the environment's fault (exit 2); other cells not run leave it incomplete (3).
        if !result.environmentErrors.isEmpty {
            throw CLIFailure.badInput("not run: " + result.environmentErrors.joined(separator: "; ") + " (\(Doctor.hint))")
        }
        if notRun > 0 { throw ExitCode(RunCommand.incompleteExitCode) }
    }
}
