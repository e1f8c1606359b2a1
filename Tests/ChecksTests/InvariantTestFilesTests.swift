@testable import Checks
import Foundation
import Testing

/// Every invariant of the registry has its tests on records built by hand beside this file, named for it
/// (`IntegrityInvariantTests.swift`; a family shares one: `RelocationInvariantTests.swift`), each of which
/// shows a held verdict, a violated one and why it may not be exercised. A new invariant without its test file
/// fails here, so "every invariant tested on hand-built records" stays true as invariants are added.
@Suite struct InvariantTestFilesTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

    /// The test file of an invariant: its type's name, or its family's.
    static func file(of invariant: any Invariant) -> String {
        let type = String(describing: Swift.type(of: invariant))
        switch type {
        case "RelocationCompletes", "RelocationCarriesCommits": return "RelocationInvariantTests.swift"
        case "PreviousBackupIntact", "RestoreDetectsDamage": return "\(type)Tests.swift"
        default: return "\(type)InvariantTests.swift"
        }
    }

    @Test func everyInvariantHasAFileOfHandBuiltRecordTests() throws {
        #expect(InvariantRegistry.all.count == 26)
        for invariant in InvariantRegistry.all {
            let url = Self.folder.appendingPathComponent(Self.file(of: invariant))
            let text = try #require(try? String(contentsOf: url, encoding: .utf8), "\(invariant.name): no \(url.lastPathComponent)")
            #expect(text.contains("\"\(invariant.name)\""), "\(url.lastPathComponent) never names \(invariant.name)")
            for shown in [".held", ".violated", "not exercised"] {
                #expect(text.contains(shown), "\(url.lastPathComponent) never shows \(invariant.name) \(shown)")
            }
        }
    }
}
