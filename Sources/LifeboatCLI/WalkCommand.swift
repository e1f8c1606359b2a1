import ArgumentParser
import Explore
import FaultVocabulary
import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat walk SCENARIO --ops write --path '*.sqlite-wal'`: the exhaustive fault walk (fail or crash at the
/// 1st, 2nd, 3rd ... matching operation until a run fires nothing).
struct WalkCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "walk",
        abstract: "Inject a fault at the Nth matching operation for N = 1, 2, ... until a run fires nothing; a repro for every failing N.",
        discussion: """
        Each N is a full run of the scenario with one more rule (ops, path, nth: N, action) and its invariants. \
        --action crash [MODE] crashes the volume right after the Nth operation. The walk writes walk.json (its \
        resumable state), walk.md, walk.html and repro-nN.yaml files to its directory; rerun with the same \
        --directory to continue. N names the same operation in every run under `scheduler: turns` only. \
        Exit 0 when every N held, 1 when some N violated an invariant, 2 for bad input.
        """)

    @Argument(help: "The scenario to walk.") var scenario: String
    @Option(help: "Operations to count, comma-separated (write,fsync,...).") var ops: String = "write"
    @Option(help: "fnmatch glob on the mount path of the files to count.") var path: String = "*"
    @Option(help: ArgumentHelp("What happens at the Nth operation: \(Self.walkActions.map(\.syntax).joined(separator: ", ")) (MODE: \(CrashMode.syntax)).",
                               valueName: "action"))
    var action: String = FaultAction.errno(.EIO).description

    /// Every fault action but `hold`, which needs the app's `while_held` work that a walk has no flag for (`try
    /// --deep` holds calls in its interleavings).
    static let walkActions = FaultAction.Kind.allCases.filter { $0 != .hold }

    /// The action `--action` names, or why it names none.
    func walkAction() throws -> FaultAction {
        let parsed: FaultAction
        do { parsed = try FaultAction(text: action) } catch {
            throw ValidationError("--action \(FaultTextError(expected: FaultAction.Kind.syntaxList(Self.walkActions), text: action, detail: error.detail))")
        }
        guard Self.walkActions.contains(parsed.kind) else {
            throw ValidationError("--action \(parsed.kind.rawValue) needs while_held (what the app does while the call is held), which a walk does not take; `lifeboat try --deep` holds calls in its interleavings")
        }
        return parsed
    }
    @Option(help: "First N.") var from: Int = 1
    @Option(help: "Highest N to try.") var max: Int?
    @Option(help: ArgumentHelp("Take every M-th N of the walk, starting at the K-th (1-based); `lifeboat report merge` the M walk folders into the whole walk.", valueName: "K/M"))
    var shard: String?
    @Flag(help: "Stop at the first N that violates an invariant.") var stopAtFailure = false
    @Option(help: "The walk's directory (created under --reports when not given); an existing one is resumed.") var directory: String?
    @Option(help: ArgumentHelp("Runs at a time: a number, or `cores`. The walk's table is the same at any value (the Ns run together past a stopping point are dropped).", valueName: "n"))
    var jobs: String = "1"
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Scratch directory.") var scratch: String?

    func validate() throws {
        guard from >= 1 else { throw ValidationError("--from must be at least 1") }
        if let max, max < from { throw ValidationError("--max must be at least --from") }
        _ = try shardValue()
        _ = try walkOps()
        _ = try walkAction()
        guard !path.isEmpty else { throw ValidationError("--path must not be empty") }
    }

    /// `--ops`, typed once (`FaultOp`).
    func walkOps() throws -> [FaultOp] {
        let names = ops.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let typed = names.compactMap(FaultOp.init(rawValue:))
        guard !names.isEmpty, typed.count == names.count else {
            throw ValidationError("--ops must name operations among \(ScenarioParser.faultOps.joined(separator: ", ")), not '\(ops)'")
        }
        return typed
    }

    func run() throws {
        let file = URL(cliPath: scenario)
        let parsed = try ScenarioCommandSupport.load(file)
        let shard = try shardValue() ?? Shard(index: 1, count: 1)
        let (k, m) = (shard.index, shard.count)
        Interruption.install()
        let walkDirectory: URL
        if let directory {
            walkDirectory = URL(cliPath: directory)
            try FileManager.default.createDirectory(at: walkDirectory, withIntermediateDirectories: true)
        } else {
            walkDirectory = try RunDirectory.create(root: URL(cliPath: reports), prefix: "walk-").url
        }
        if parsed.scheduler != "turns" {
            print("note: scheduler \(parsed.scheduler): N may name a different operation from run to run; `scheduler: turns` makes the walk exact")
        }
        let config = FaultWalk.Config(scenarioFile: file.path, ops: try walkOps(),
                                      path: path, action: try walkAction(), from: from, max: max, shard: k, shards: m,
                                      stopAtFailure: stopAtFailure)
        // Ns run of those this shard will run up to --max (unknown without --max: a count and the time so far).
        let walkProgress = Progress(total: max.map { Swift.max(0, ($0 - from) / m + 1) }, label: "Ns")
        defer { walkProgress.finish() }
        let walk = FaultWalk(base: parsed, config: config, directory: walkDirectory,
                             settings: ScenarioCommandSupport.settings(reports: reports, scratch: scratch),
                             progress: { @Sendable line in walkProgress.step(line) }, jobs: try jobCount())
        let state: FaultWalk.State
        do { state = try walk.run() } catch let error as FaultWalk.WalkError { throw CLIFailure.badInput(error.description) }
        print(FaultWalkReport.headline(state).replacingOccurrences(of: "`", with: ""))
        print("walk: \(walkDirectory.path)/walk.md")
        if Interruption.requested { throw CLIFailure(code: Interruption.exitCode, message: "interrupted; rerun with --directory \(walkDirectory.path) to continue") }
        if let first = state.firstFailing {
            print("first failing N=\(first.n): \(first.violated.joined(separator: ", ")); replay: lifeboat replay \(first.repro ?? "?")")
            throw ExitCode(1)
        }
        if let notRun = state.rows.first(where: { $0.outcome == FaultWalk.notRun }) {
            print("N=\(notRun.n) not run: \(notRun.errors.first ?? "")")
            throw ExitCode(RunCommand.incompleteExitCode)
        }
    }
}
