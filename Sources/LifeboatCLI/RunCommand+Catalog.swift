import Foundation
import Reporting
import Runner
import Scenario

/// `lifeboat run DIR --seeds 1-3 --catalog FILE`: a campaign over a real-bug catalog's scenarios that also writes
/// the catalog's document (docs/real-bugs.md) from the suite summary, so the published table is always what the
/// runs showed. The campaign is an ordinary one (suite folder, summary.json, JUnit, exit codes); the document is
/// written into the suite folder too, as catalog.md.
extension RunCommand {
    /// The catalog of the folder every scenario comes from (`DIR/_catalog.yaml`); bad input otherwise.
    func loadCatalog(_ files: [URL]) throws -> BugCatalog {
        let folders = Set(files.map { $0.deletingLastPathComponent().standardizedFileURL.path })
        guard folders.count == 1, let folder = folders.first else {
            throw CLIFailure.badInput("--catalog: the scenarios must come from one folder with a \(BugCatalog.fileName) (got \(folders.sorted().joined(separator: ", ")))")
        }
        let file = URL(fileURLWithPath: folder).appendingPathComponent(BugCatalog.fileName)
        let catalog: BugCatalog
        do { catalog = try BugCatalog.parse(file: file) } catch let error as ScenarioError { throw CLIFailure.badInput(error.description) }
        for scenario in files.map(\.lastPathComponent) {
            let name = String(scenario.dropLast(".yaml".count))
            guard let id = BugCatalog.entryID(ofScenario: name), catalog.entries.contains(where: { $0.id == id }) else {
                throw CLIFailure.badInput("--catalog: \(folder)/\(scenario) names no entry of \(file.path) (a catalog scenario's file starts with bNN-, NN an entry's number)")
            }
        }
        return catalog
    }

    func writeCatalog(_ catalog: BugCatalog, summary: SuiteSummary, folder: SuiteFolder, to file: URL) throws {
        var command = "lifeboat run \(scenarios.joined(separator: " "))"
        if let seeds { command += " --seeds \(seeds)" }
        command += " --catalog \(self.catalog ?? file.path)"
        let base = file.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: base, withIntermediateDirectories: true)
        try Data(BugCatalogReport.markdown(catalog, summary: summary, command: command, base: base).utf8).write(to: file)
        try Data(BugCatalogReport.markdown(catalog, summary: summary, command: command, base: folder.url).utf8)
            .write(to: folder.url.appendingPathComponent("catalog.md"))
        let reproduced = BugCatalogReport.reproduced(catalog, rows: BugCatalogReport.rows(summary))
        print("catalog: \(reproduced.count) of \(catalog.entries.count) entries reproduced on every seed run; \(file.path)")
    }
}
