import FaultVocabulary
import Foundation
import Testing

/// The prose lists of fault actions and ops are checked against the one list in the vocabulary, so they cannot
/// drift: docs/faultfs.md's action table has a row for every kind and none other, with the kind's grammar; the
/// scenario reference names every kind's grammar; the ops line of docs/faultfs.md names every op.
@Suite struct FaultDocsTableTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    /// The rows of the table under "## Fault rules" whose header starts with `| action (text) |`.
    static func actionRows() throws -> [[String]] {
        let text = try String(contentsOf: docs.appendingPathComponent("faultfs.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Fault rules\n").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let lines = section.components(separatedBy: "\n")
        let header = try #require(lines.firstIndex { $0.hasPrefix("| action (text) |") })
        return lines[(header + 2)...].prefix { $0.hasPrefix("|") }.map { line in
            line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().map { $0.trimmingCharacters(in: .whitespaces) }
        }
    }

    @Test func faultfsActionTableListsEveryKindOnce() throws {
        let rows = try Self.actionRows()
        let documented = rows.map { $0[0].trimmingCharacters(in: CharacterSet(charactersIn: "`")) }
        #expect(documented == FaultAction.Kind.allCases.map(\.syntax), "docs/faultfs.md's action table, in FaultAction.Kind's order")
        for (row, kind) in zip(rows, FaultAction.Kind.allCases) {
            #expect(row[1].contains(#""kind":"\#(kind.rawValue)""#), "the JSON of \(kind.rawValue): \(row[1])")
        }
    }

    @Test func scenarioReferenceNamesEveryKind() throws {
        let text = try String(contentsOf: Self.docs.appendingPathComponent("scenario-file.md"), encoding: .utf8)
        let row = try #require(text.components(separatedBy: "\n").first { $0.hasPrefix("| `action` | `errno EIO` |") })
        for kind in FaultAction.Kind.allCases { #expect(row.contains("`\(kind.syntax)`"), "\(kind.syntax) in docs/scenario-file.md") }
    }

    @Test func faultfsOpsLineNamesEveryOp() throws {
        let text = try String(contentsOf: Self.docs.appendingPathComponent("faultfs.md"), encoding: .utf8)
        let start = try #require(text.range(of: "* ops: `"))
        let list = text[start.upperBound...].prefix { $0 != "`" }
        let names = list.split(whereSeparator: { $0 == " " || $0 == "\n" }).map(String.init)
        #expect(names == FaultOp.names)
    }
}
