import ArgumentParser
import Explore
import Foundation
import Reporting
import Runner
import Scenario
import StoreModel

/// `lifeboat try --backup CMD [--restore CMD]`: the newcomer's command. Runs a backup (and restore) program,
/// unchanged, through the standard situations of `Scenarios/tools/_situations` (the matrix's), on a generated
/// store or a copy of the user's, and prints one line per situation with a repro file per finding.
struct TryCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "try",
        abstract: "Try your own backup (and restore) program in the standard situations: one line per situation, a repro per finding.",
        discussion: """
            The backup program gets LIFEBOAT_STORE (the live store's .sqlite, in its folder with the -wal and the \
            .<Store>_SUPPORT folder) and LIFEBOAT_BACKUP_DIR (fill it, keeping the store's file name); the restore \
            program gets LIFEBOAT_BACKUP (the backup's .sqlite) and LIFEBOAT_STORE (put it back there). Both run \
            with /bin/sh -c from the current directory; a script the command line names (sh my-backup.sh) is named by \
            its absolute path in runs and repros, and copied into a --save folder, so both run from any folder. Exit 0 every situation held, 1 a \
            finding, 2 bad input or a program that could not start (not installed, not executable, a missing \
            script), checked before anything runs, 3 a situation not exercised on your --store (no attachments), or \
            a --deep search the --budget cut short. --deep searches the program's own calls instead of the \
            situations: a crash right after each of its fsyncs, renames, unlinks and rmdirs in each crash mode, EIO, ENOSPC, \
            a short write and a failing fsync at each of its calls, a crash the moment it reports success, and its \
            opens of the store's files held while the app commits and checkpoints (each checkpoint mode, the same \
            interleaving in every run); a restore runs over an app killed with its -wal in place, and the app is \
            relaunched on the restored store and commits, so its calls after the swap (the old files' removal, its \
            cleanup, its last syncs) are judged by what the app then finds; a \
            finding per kind of fault, at its first failing call, with a repro (docs/tutorial.md).
            """)

    @Option(help: ArgumentHelp("Your backup command line (shell).", valueName: "command")) var backup: String
    @Option(help: ArgumentHelp("Your restore command line (shell); without it the situations run backups only.", valueName: "command"))
    var restore: String?
    @Option(help: ArgumentHelp("Your own store (.sqlite) to copy for every run, instead of a generated one.", valueName: "path"))
    var store: String?
    @Option(help: "Seeds: ranges and lists (1-3, 1,4,9).") var seeds = "1"
    @Option(help: ArgumentHelp("Also write the scenario files used (and the program's scripts) here, ready for `lifeboat run` in CI.",
                                valueName: "dir")) var save: String?
    @Option(help: ArgumentHelp("Only these situations (comma-separated, run in the standard order), e.g. live-wal,crash-after-backup.", valueName: "names"))
    var situations: String?
    @Flag(help: "Search the program's own operations (a crash after each persistence point in each crash mode; EIO, ENOSPC, a short write at each call) instead of the situations; a point where it never returns is reported HUNG and the search goes on; exit 3 when --budget cut it.")
    var deep = false
    @Option(help: ArgumentHelp("With --deep: stop starting runs after this long (10m, 90s) and say how much was covered.", valueName: "duration"))
    var budget: String?
    @Option(help: ArgumentHelp("With --deep: each walk's finding's repro (the crash after success's too) is shrunk once the search is done (fewer steps, writer transactions, store objects and attachments, the earliest call of the same kind) with at most this many runs per finding, on top of --budget (default 16; 0: not shrunk); a shrunk repro is kept only when it replays the same finding 3 of 3 times, and it says what was shrunk.", valueName: "n"))
    var shrinkRuns: Int?
    @Option(help: ArgumentHelp("Runs at a time: a number, or `cores`. The page and the verdicts are the runs' own, in the same order at any value; runs whose verdict depends on the machine's pace may see a busier machine.", valueName: "n"))
    var jobs: String = "1"
    @Option(help: ArgumentHelp("Run only the K-th of N slices of the runs (the situations' runs; with --deep, the walks of the search); `lifeboat report merge` the N folders into the whole.", valueName: "K/N"))
    var shard: String?
    @Option(help: "Where reports go (reports/try-<id>/).") var reports: String = "reports"
    @Option(help: "Scratch directory for stores.") var scratch: String?
    @OptionGroup var ci: CIOutputOptions

    func validate() throws {
        if backup.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--backup needs a command line") }
        if let restore, restore.trimmingCharacters(in: .whitespaces).isEmpty { throw ValidationError("--restore needs a command line") }
        if let budget {
            guard deep else { throw ValidationError("--budget goes with --deep") }
            guard DurationText.seconds(budget) != nil else { throw ValidationError("--budget must be a duration (10m, 90s, 1h30m), not '\(budget)'") }
        }
        if deep, situations != nil { throw ValidationError("--deep searches its own situation; leave out --situations") }
        if let shrinkRuns {
            guard deep else { throw ValidationError("--shrink-runs goes with --deep") }
            guard (0...1000).contains(shrinkRuns) else { throw ValidationError("--shrink-runs must be between 0 and 1000, not \(shrinkRuns)") }
        }
        if deep, save != nil { throw ValidationError("--deep writes a repro per finding; --save goes with the situations") }
        _ = try shardValue()
    }

    func run() throws {
        let seedList: [UInt64]
        do { seedList = try SeedList(seeds).seeds } catch let error as SeedList.ParseError { throw CLIFailure.badInput(error.message) }
        var storeURL: URL?
        if let store {
            let url = URL(cliPath: store)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), !isDirectory.boolValue else {
                throw CLIFailure.badInput("--store \(store): no such store file")
            }
            storeURL = url
        }
        // A program that cannot start (not installed, not executable, `sh FILE` with no FILE) never runs: exit 2
        // before any situation, so no finding and no repro stands for a typo.
        let workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
        let program = TryProgram.Program(backup: backup, restore: restore, store: storeURL)
        if let reason = TryProgram.preflight(program, workingDirectory: workingDirectory) { throw CLIFailure.badInput("not run: \(reason)") }
        Interruption.install()
        let directory = try RunDirectory.create(root: URL(cliPath: reports), prefix: "try-")
        if deep {
            return try runDeep(program: program, seeds: seedList, directory: directory, workingDirectory: workingDirectory)
        }
        let only = situations.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } }
        let (recipe, tools, skipped): (ToolMatrix.Recipe, URL, [TryProgram.Skipped])
        let notExercised: [String: String]
        do {
            (recipe, tools, skipped) = try TryProgram.recipe(for: program, at: directory.url.appendingPathComponent("scenarios"),
                                                             workingDirectory: workingDirectory, only: only)
            notExercised = try TryProgram.notExercised(on: storeURL, situations: recipe.situations.map(\.name))
        } catch let error as ToolMatrix.MatrixError {
            throw CLIFailure.badInput(error.description)
        } catch let error as StoreError {
            throw CLIFailure.badInput("--store \(store ?? ""): \(error)")
        }
        let command = "lifeboat try --backup '\(backup)'" + (restore.map { " --restore '\($0)'" } ?? "") + (store.map { " --store \($0)" } ?? "")
            + " --seeds \(seeds)" + (situations.map { " --situations \($0)" } ?? "")
        let leftOut = skipped.count + notExercised.count
        print("try \(directory.id): \(recipe.situations.count - notExercised.count) of \(recipe.situations.count + skipped.count) situation(s)"
              + " x \(seedList.count) seed(s)" + (shard.map { ", shard \($0)" } ?? "") + (store.map { " on a copy of \($0)" } ?? " on a generated store")
              + (leftOut > 0 ? " (\(leftOut) left out: listed below)" : ""))
        let progress = Progress(total: try shardValue()?.share(of: recipe.situations.count * seedList.count) ?? recipe.situations.count * seedList.count, label: "runs")
        // On a terminal the line also shows the running run's latest step (copying a large --store, the backup)
        // and the time going by.
        var settings = ScenarioCommandSupport.settings(reports: reports, scratch: scratch)
        settings.progress = { line in progress.activity(ReplayCommand.step(line)) }
        progress.tick()
        let result: ToolMatrix.Result
        do {
            result = try ToolMatrix.run([recipe], seeds: seedList, matrix: directory, settings: settings,
                                        command: command, directory: tools.path, notExercised: notExercised, jobs: try jobCount(),
                                        shard: try shardValue()) { line in progress.step(line) }
        } catch RunError.interrupted {
            progress.finish()
            throw CLIFailure(code: Interruption.exitCode, message: "interrupted; partial runs in \(directory.url.path)")
        }
        progress.finish()
        try ToolMatrixReport.write(result, to: directory)
        try directory.markLatest()
        print("")
        for line in TryProgram.lines(result, skipped: skipped, matrix: directory.url, width: TerminalStyle.columns,
                                     workingDirectory: workingDirectory) { print(line) }
        if let save {
            let files = try TryProgram.save(recipe, program: program, workingDirectory: workingDirectory, seed: seedList[0], seeds: seeds, to: URL(cliPath: save))
            print("saved \(files.count) scenario file(s) and the program's scripts in \(save): lifeboat run \(save) --seeds \(seeds)")
        }
        print("report: \(directory.url.path)/matrix.html")
        try CIOutput.emit(CIOutput.findings(matrix: result, recipes: [recipe], folder: directory.url, typed: .init(backup: backup, restore: restore),
                                            workingDirectory: workingDirectory),
                          verdicts: TryProgram.lines(result, skipped: skipped, matrix: directory.url).prefix { !$0.isEmpty }.map { $0 },
                          context: .init(command: command, category: "lifeboat-try", reports: directory.url), options: ci)
        if result.cells.contains(where: \.caught) { throw ExitCode(1) }
        if let notRun = result.cells.first(where: \.isNotRun) {
            throw CLIFailure.badInput("not run: \(notRun.notRunRuns.first?.notRun ?? "") (\(Doctor.hint))")
        }
        let unexercised = result.cells.filter { $0.notExercised != nil }.map(\.situation)
        if !unexercised.isEmpty {
            throw CLIFailure(code: 3, message: "not exercised on this store: \(unexercised.joined(separator: ", ")) (see above); that is no pass")
        }
    }
}
