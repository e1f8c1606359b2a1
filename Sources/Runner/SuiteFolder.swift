import Foundation
import Reporting

/// `reports/<suite-id>/` for a campaign: `index.html`, `summary.json`, `junit.xml` and the run folders under
/// `runs/`, so the folder is whole by itself (copy it as a CI artifact and every link still resolves).
public struct SuiteFolder: Sendable {
    public let directory: RunDirectory
    public var id: String { directory.id }
    public var url: URL { directory.url }
    /// Where the campaign's run folders go.
    public var runsRoot: URL { url.appendingPathComponent("runs", isDirectory: true) }

    /// A new suite folder under `reportsRoot` (`suite-<time>-<random>`).
    public static func create(reportsRoot: URL) throws -> SuiteFolder {
        let directory = try RunDirectory.create(root: reportsRoot, prefix: "suite-")
        try FileManager.default.createDirectory(at: directory.url.appendingPathComponent("runs"), withIntermediateDirectories: true)
        return SuiteFolder(directory: directory)
    }

    /// An existing or new folder at `url` (for `report merge --out`).
    public init(url: URL) throws {
        try FileManager.default.createDirectory(at: url.appendingPathComponent("runs"), withIntermediateDirectories: true)
        directory = RunDirectory(existing: url)
    }

    init(directory: RunDirectory) { self.directory = directory }

    /// Writes summary.json (with tallies), index.html and junit.xml, each atomically.
    public func write(_ summary: SuiteSummary) throws {
        // Each run points `runs/latest` at itself; in a suite that link is noise (and a second copy of a run
        // folder in artifact uploaders that follow links), so it goes.
        let link = runsRoot.appendingPathComponent("latest")
        if (try? FileManager.default.destinationOfSymbolicLink(atPath: link.path)) != nil { try? FileManager.default.removeItem(at: link) }
        let full = summary.withTallies()
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try directory.write("summary.json", String(decoding: try encoder.encode(full), as: UTF8.self))
        try directory.write("index.html", SuiteHTMLReport.render(full))
        try directory.write("junit.xml", SuiteJUnitReport.render(full))
    }

    /// Points `reports/latest` at this suite.
    public func markLatest() throws { try directory.markLatest() }

    /// Reads a suite folder's summary.json.
    public static func readSummary(_ folder: URL) throws -> SuiteSummary {
        let file = folder.appendingPathComponent("summary.json")
        let data: Data
        do { data = try Data(contentsOf: file) } catch {
            throw RunError.environment("\(folder.path): no summary.json (is this a suite folder written by `lifeboat run --seeds`?)")
        }
        do { return try JSONDecoder().decode(SuiteSummary.self, from: data) } catch {
            throw RunError.environment("\(file.path): not a lifeboat suite summary (\(SuiteSummary.schemaVersion)): \(error)")
        }
    }
}
