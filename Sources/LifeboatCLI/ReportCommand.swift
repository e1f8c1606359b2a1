import ArgumentParser
import Foundation
import Reporting
import Runner

/// `lifeboat report`: commands over report folders.
struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "Work with suite report folders (merge the shards of a campaign).",
        subcommands: [ReportMergeCommand.self])
}

/// `lifeboat report merge DIR... --out DIR`: one suite folder from the shard folders of one campaign. Exit 2
/// (nothing written) for folders of different campaigns or a pair missing or repeated; else the merged
/// campaign's exit code: 0 passed, 1 a run did not show what it expects, 3 incomplete.
struct ReportMergeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "merge",
        abstract: "Merge the suite folders of a campaign's shards into one suite report and one JUnit file.",
        discussion: "Exit 0 passed, 1 a run did not show what it expects, 2 the folders are not one campaign exactly once (nothing is written), 3 incomplete (pairs skipped or not run).")

    @Argument(help: "The shard suite folders (each with summary.json and runs/).") var folders: [String]
    @Option(help: "The merged suite folder to create (absent or empty).") var out: String
    @Option(help: "Also write the merged JUnit XML here.") var junit: String?

    func run() throws {
        guard !folders.isEmpty else { throw CLIFailure.badInput("give the shard folders to merge") }
        let merged: SuiteSummary
        do { merged = try SuiteMerge.merge(folders.map { URL(cliPath: $0) }, into: URL(cliPath: out)) } catch let error as RunError {
            throw CLIFailure.badInput("report merge: \(error)")
        }
        if let junit { try Data(SuiteJUnitReport.render(merged).utf8).write(to: URL(cliPath: junit)) }
        print("merged \(folders.count) folder(s) of campaign \(merged.campaign.id.prefix(16)): \(merged.entries.count) pair(s)")
        print(SuiteTextReport.render(merged, folder: URL(cliPath: out).path), terminator: "")
        print("suite report: \(URL(cliPath: out).path)/index.html")
        if merged.outcome.code != 0 { throw ExitCode(merged.outcome.code) }
    }
}
