import ArgumentParser
import Explore
import Foundation
import Reporting
import Runner

/// `lifeboat report`: commands over report folders.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with report folders (merge the shards of a run, matrix, try, try --deep, walk or crash-states).",
        subcommands: [ReportMergeCommand.self])
}

/// `lifeboat report merge DIR... --out DIR`: one folder from the shard folders of one many-runs command, whatever
/// the command (the folders say which: summary.json of `run --seeds`, matrix.json of `matrix` and `try`, deep-seed*/
/// of `try --deep`, walk.json of `walk`), with the pages one unsharded run writes. Exit 2 (nothing written) for
/// folders of different runs or a case missing or repeated; else the merged whole's exit code, as the command's.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the folders of the shards (--shard K/N) of one run, matrix, try, try --deep, walk or crash-states into one folder and its pages.",
        discussion: "The folders' kind is read from them. Exit 0 passed, 1 something was caught (a run that did not show what it expects, a finding), 2 the folders are not one whole exactly once (nothing is written), 3 incomplete (pairs skipped or not run).")

    @Argument(help: "The shard folders (all of one kind: suite folders with summary.json, matrix or try folders, walk folders).") var folders: [String]
    @Option(help: "The merged folder to create (absent or empty).") var out: String
    @Option(help: "Also write the merged JUnit XML here (suites of run --seeds).") var junit: String?

    /// What the shard folders hold, read from their files.
    enum Kind: String {
        case suite = "run --seeds", matrix = "matrix or try", deep = "try --deep", walk = "walk", crashStates = "crash-states"

        init?(folder: URL) {
            let has = { (name: String) in FileManager.default.fileExists(atPath: folder.appendingPathComponent(name).path) }
            if has("summary.json") { self = .suite } else if has(MatrixMerge.file) { self = .matrix } else if has(FaultWalk.stateFile) { self = .walk }
            else if has(CrashStateRows.file) { self = .crashStates }
            else if let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path), names.contains(where: { $0.hasPrefix("deep-seed") }) { self = .deep }
            else { return nil }
        }
    }

    func run() throws {
        guard !folders.isEmpty else { throw CLIFailure.badInput("give the shard folders to merge") }
        let urls = folders.map { URL(cliPath: $0) }, outURL = URL(cliPath: out)
        let kinds = try urls.map { url -> Kind in
            guard let kind = Kind(folder: url) else {
                throw CLIFailure.badInput("report merge: \(url.path) is no folder of a run, matrix, try, walk or crash-states (no summary.json, matrix.json, walk.json, \(CrashStateRows.file) or deep-seed*/)")
            }
            return kind
        }
        if let other = kinds.first(where: { $0 != kinds[0] }) {
            throw CLIFailure.badInput("report merge: the folders are of different commands (\(kinds[0].rawValue) and \(other.rawValue))")
        }
        if junit != nil, kinds[0] != .suite { throw CLIFailure.badInput("report merge: --junit goes with suites of run --seeds") }
        do {
            switch kinds[0] {
            case .suite: try mergeSuites(urls, into: outURL)
            case .matrix: try mergeMatrices(urls, into: outURL)
            case .deep: try mergeDeep(urls, into: outURL)
            case .walk: try mergeWalks(urls, into: outURL)
            case .crashStates: try mergeCrashStates(urls, into: outURL)
            }
        } catch let error as ShardPlan.MergeError {
            throw CLIFailure.badInput("report merge: \(error)")
        } catch let error as CrashStateRows.RowsError {
            throw CLIFailure.badInput("report merge: \(error)")
        }
    }

    func mergeSuites(_ urls: [URL], into outURL: URL) throws {
        let merged: SuiteSummary
        do { merged = try SuiteMerge.merge(urls, into: outURL) } catch let error as RunError {
            throw CLIFailure.badInput("report merge: \(error)")
        }
        if let junit { try Data(SuiteJUnitReport.render(merged).utf8).write(to: URL(cliPath: junit)) }
        print("merged \(folders.count) folder(s) of campaign \(merged.campaign.id.prefix(16)): \(merged.entries.count) pair(s)")
        print(SuiteTextReport.render(merged, folder: outURL.path), terminator: "")
        print("suite report: \(outURL.path)/index.html")
        if merged.outcome.code != 0 { throw ExitCode(merged.outcome.code) }
    }

    /// The exit codes of `matrix` (and `try`: a caught cell is 1 there too, as a run not as its recipe expects).
    func mergeMatrices(_ urls: [URL], into outURL: URL) throws {
        let merged = try MatrixMerge.merge(urls, into: outURL)
        let isTry = merged.command.hasPrefix("lifeboat try")
        print("merged \(folders.count) folder(s) of \(isTry ? "try" : "matrix") \(merged.plan?.id.prefix(16) ?? ""): \(merged.plan?.cases.count ?? 0) case(s); "
              + "\(merged.cells.filter(\.held).count) cell(s) held, \(merged.cells.filter(\.caught).count) caught, \(merged.notRunCount) not run")
        if isTry {
            // One line per situation, as `try` prints them (the situations `try` left out are the shards' to say).
            print("")
            for line in TryProgram.lines(merged, skipped: [], matrix: outURL, width: TerminalStyle.columns) { print(line) }
        }
        print("report: \(outURL.path)/matrix.html")
        if isTry {
            // As `try` exits: 1 a finding, 2 a program that could not start, 3 a situation not exercised.
            if merged.cells.contains(where: \.caught) { throw ExitCode(1) }
            if merged.notRunCount > 0 { throw ExitCode(2) }
            if merged.cells.contains(where: { $0.notExercised != nil }) { throw ExitCode(3) }
        } else {
            // As `matrix` exits: 1 a run not as its recipe expects, 2 a tool not installed, 3 cells not run.
            if !merged.expectationsMet { throw ExitCode(1) }
            if !merged.environmentErrors.isEmpty { throw ExitCode(2) }
            if merged.notRunCount > 0 { throw ExitCode(RunCommand.incompleteExitCode) }
        }
    }

    func mergeDeep(_ urls: [URL], into outURL: URL) throws {
        let merged = try DeepSearch.mergeTry(urls, into: outURL)
        for (seed, summary) in merged {
            print("\(seed): \(DeepSearch.coverage(summary)), \(summary.runs) runs, \(summary.findings.count) finding(s)")
            for finding in summary.findings {
                print("  CAUGHT \(finding.violated.joined(separator: ", ")) at \(finding.walk), N=\(finding.n): \(finding.operation)")
            }
            print("  page: \(outURL.path)/\(seed)/deep.md")
        }
        if merged.contains(where: { !$0.summary.findings.isEmpty }) { throw ExitCode(1) }
    }

    func mergeCrashStates(_ urls: [URL], into outURL: URL) throws {
        let (rows, summary, run) = try CrashStateRows.merge(urls, into: outURL)
        print("merged \(folders.count) folder(s) of crash states \(rows.plan.id.prefix(16)): \(rows.units.count) unit(s), \(summary.pointsChecked) points, "
              + "\(summary.statesChecked) states (\(summary.statesExamined) examined afresh), \(summary.statesFailed) failed")
        print(run == nil ? "the recorded run's report folder is gone: its report does not count the states" : "run report: \(rows.run ?? "")")
        print("report: \(outURL.path)/\(CrashStateRows.summaryFile)")
        if summary.statesFailed > 0 { throw ExitCode(1) }
    }

    func mergeWalks(_ urls: [URL], into outURL: URL) throws {
        let state = try FaultWalk.merge(urls, into: outURL)
        print(FaultWalkReport.headline(state).replacingOccurrences(of: "`", with: ""))
        print("walk: \(outURL.path)/walk.md")
        if state.firstFailing != nil { throw ExitCode(1) }
    }
}
