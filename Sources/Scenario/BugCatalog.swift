import Foundation
import Yams

/// A catalog of real bugs (`_catalog.yaml` in a scenario folder such as `Scenarios/real-bugs`): one entry per
/// failure reported in public, with its sources, and for an entry no scenario reproduces, why. The scenarios of
/// the folder name their entry by a `bNN-` prefix (`b07-snapshot-overwritten-in-place` reproduces B7), so the
/// folder's scenario files and this list are the whole catalog, and `lifeboat run DIR --catalog FILE` generates
/// its document from them and the runs.
public struct BugCatalog: Sendable, Codable, Equatable {
    public struct Entry: Sendable, Codable, Equatable {
        /// `B1`, `B2`, ...: the `bNN-` prefix of the scenarios that reproduce it.
        public var id: String
        public var title: String
        /// The public reports (URLs).
        public var sources: [String]
        /// Where a fix is on record (a tool version or a pull request), when one is.
        public var fixedIn: String?
        /// Why no scenario reproduces the entry (only for entries without one).
        public var notReproduced: String?
    }

    public var entries: [Entry]
    public var file: String

    /// The catalog's file name inside its scenario folder.
    public static let fileName = "_catalog.yaml"

    /// The entry a scenario reproduces, from its name: `b07-...` is B7; nil for a name without the prefix.
    public static func entryID(ofScenario name: String) -> String? {
        guard name.hasPrefix("b"), let dash = name.firstIndex(of: "-"),
              let number = Int(name[name.index(after: name.startIndex)..<dash]) else { return nil }
        return "B\(number)"
    }

    /// Reads `file`; every mistake is a `ScenarioError` with file:line:column.
    public static func parse(file url: URL) throws -> BugCatalog {
        let path = url.path
        if let problem = ScenarioParser.notAScenarioFile(path) {
            throw ScenarioError(file: path, line: 1, column: 1, message: "the catalog: \(problem)")
        }
        let text: String
        do { text = try String(contentsOf: url, encoding: .utf8) } catch {
            throw ScenarioError(file: path, line: 1, column: 1, message: "cannot read the catalog: \(error.localizedDescription)")
        }
        return try parse(text, file: path)
    }

    static func parse(_ text: String, file: String) throws -> BugCatalog {
        var root = try NodeReader(try ScenarioParser.compose(text, file: file), file: file, context: "catalog")
        guard let list = try root.sequence("entries") else {
            throw root.error(nil, "the catalog needs `entries:`, a list of {id, title, sources, fixed_in, not_reproduced}")
        }
        try root.finish()
        var entries: [Entry] = []
        for node in list {
            var reader = try NodeReader(node, file: file, context: "entries")
            let idNode = reader.node("id")
            guard let id = idNode?.string, id.hasPrefix("B"), let number = Int(id.dropFirst()), number > 0, "B\(number)" == id else {
                throw reader.error(idNode ?? node, "an entry needs `id: B<number>` (B1, B2, ...)")
            }
            if entries.contains(where: { $0.id == id }) { throw reader.error(idNode, "entry \(id) appears twice") }
            guard let title = try reader.string("title"), !title.isEmpty else { throw reader.error(node, "entry \(id) needs a `title`") }
            var sources: [String] = []
            if let list = try reader.sequence("sources") {
                sources = try list.map { item in
                    guard let url = item.string, url.hasPrefix("http://") || url.hasPrefix("https://") else {
                        throw reader.error(item, "entry \(id): every source is a URL (http:// or https://)")
                    }
                    return url
                }
            }
            if sources.isEmpty { throw reader.error(node, "entry \(id) needs `sources`: the public reports it comes from") }
            let entry = Entry(id: id, title: title, sources: sources, fixedIn: try reader.string("fixed_in"),
                              notReproduced: try reader.string("not_reproduced"))
            try reader.finish()
            entries.append(entry)
        }
        return BugCatalog(entries: entries, file: file)
    }
}
