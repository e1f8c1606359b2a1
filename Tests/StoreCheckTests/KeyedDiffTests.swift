import Foundation
import GRDB
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `check --against` as a diff on a store with no identity attribute (user trial F8): a changed value is one
/// finding naming the object by entity and Z_PK with both values, not counts cascading over the entities that
/// point at it, and no "renumbered" claim when every key is the same.
@Suite struct KeyedDiffTests {
    static func pair(_ scratch: Scratch, edit: String) throws -> (copy: URL, original: URL) {
        let original = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("original"))
        let copy = try RealStoreFixtures.copy("xcserver-1.2.0", into: scratch.path("copy"))
        let queue = try DatabaseQueue(path: copy.path)
        try queue.write { db in try db.execute(sql: edit) }
        try queue.close()
        return (copy, original)
    }

    @Test func aChangedNameIsOneFindingWithBothValues() throws {
        let scratch = try Scratch("keyed-name")
        let (copy, original) = try Self.pair(scratch, edit: "UPDATE ZBOT SET ZNAME = 'evil' WHERE Z_PK = 1")
        let expectedName = try DatabaseQueue(path: original.path).read { try String.fetchOne($0, sql: "SELECT ZNAME FROM ZBOT WHERE Z_PK = 1") }
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.violations.count == 1, "\(report.findings)")
        let finding = try #require(report.violations.first)
        #expect(finding.kind == .changedObject && finding.entity == "Bot" && finding.object == "Z_PK 1")
        #expect(finding.message.contains("ZNAME \"evil\" vs expected \"\(try #require(expectedName))\""), "\(finding)")
        #expect(report.count(.renumberedObjects) == 0, "\(report.findings)")
    }

    /// A changed object that many-to-many links point at changes the links' content digests, not the links:
    /// still one finding, on the object.
    @Test func aChangedLinkedObjectDoesNotCascadeIntoItsLinks() throws {
        let scratch = try Scratch("keyed-linked")
        let (copy, original) = try Self.pair(scratch, edit: "UPDATE ZREPOSITORY SET ZURL = 'https://evil.example' WHERE Z_PK = 1")
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.violations.count == 1, "\(report.findings)")
        #expect(report.violations.first?.entity == "Repository" && report.violations.first?.object == "Z_PK 1")
        #expect(report.violations.first?.message.contains("ZURL \"https://evil.example\" vs expected") == true, "\(report.findings)")
        #expect(report.count(.renumberedObjects) == 0, "\(report.findings)")
    }

    /// A link removed with every key the same: the link is named by its two keys.
    @Test func aRemovedLinkIsNamedByItsKeys() throws {
        let scratch = try Scratch("keyed-link-removed")
        let (copy, original) = try Self.pair(scratch, edit: "DELETE FROM Z_8REPOSITORIES WHERE Z_8CONFIGURATIONS = 1 AND Z_18REPOSITORIES = 1")
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.violations.map(\.kind) == [.missingLink], "\(report.findings)")
        #expect(report.violations.first?.object == "1 -> 1")
    }

    @Test func aDeletedObjectIsNamedByKeyWithNoRenumberingClaim() throws {
        let scratch = try Scratch("keyed-delete")
        let (copy, original) = try Self.pair(scratch, edit: "DELETE FROM ZASSET WHERE Z_PK = (SELECT max(Z_PK) FROM ZASSET)")
        let key = try #require(try DatabaseQueue(path: original.path).read { try Int.fetchOne($0, sql: "SELECT max(Z_PK) FROM ZASSET") })
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.violations.contains { $0.kind == .missingObject && $0.entity == "Asset" && $0.object == "Z_PK \(key)" }, "\(report.findings)")
        #expect(report.count(.missingObject) == 1)
        #expect(report.count(.renumberedObjects) == 0, "\(report.findings)")
        #expect(!report.violations.contains { $0.kind == .extraObject }, "\(report.findings)")
    }

    @Test func identicalCopiesHaveNoFindingAtAll() throws {
        let scratch = try Scratch("keyed-same")
        let (copy, original) = try Self.pair(scratch, edit: "SELECT 1")
        let report = try StoreComparison.compare(copy, against: original)
        #expect(report.findings.isEmpty, "\(report.findings)")
    }

    @Test func aStoreWithNoObjectsSaysSo() throws {
        let scratch = try Scratch("empty-store")
        let url = scratch.path("e/Library.sqlite")
        try StoreGenerator(objects: 0, blobFraction: 0, seed: 1).generate(at: url)
        let report = try StoreVerifier.verify(url)
        #expect(!report.hasViolations)
        #expect(report.findings.contains { $0.kind == .emptyStore && $0.message.contains("no objects at all") }, "\(report.findings)")
        let full = try StoreVerifier.verify(try scratch.store("f/Library.sqlite", objects: 5))
        #expect(full.count(.emptyStore) == 0)
    }
}
