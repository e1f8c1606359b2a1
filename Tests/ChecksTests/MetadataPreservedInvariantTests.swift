@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreModel
import Testing

/// `metadata-preserved` on records built by hand, with the metadata read from tiny real stores: a copy of the
/// live store has its model version hashes and store UUID (held); a store with another model's hashes is
/// violated, naming the entities; a new store UUID alone is reported, not a finding; a run without a completed
/// backup is not exercised.
@Suite struct MetadataPreservedInvariantTests {
    static let name = "metadata-preserved"

    static func verdict(live: StoreState?, backup: StoreState) -> Verdict {
        var record = HandBuilt.record()
        record.liveMetadata = live
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, state: backup)]
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aCopyOfTheLiveStoreHolds() throws {
        let scratch = try Scratch("metadata-held")
        let live = try HandBuilt.tinyStore(scratch, "live/Library.sqlite")
        let copy = try HandBuilt.copy(live, to: "backup-0/Library.sqlite", in: scratch)
        let verdict = Self.verdict(live: try StoreState.read(live), backup: try StoreState.read(copy))
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command): model hashes equal, same store UUID", "\(verdict)")
    }

    @Test func aNewStoreUUIDIsReportedNotAFinding() throws {
        let scratch = try Scratch("metadata-uuid")
        let live = try StoreState.read(try HandBuilt.tinyStore(scratch, "live/Library.sqlite"))
        var copy = live
        copy.storeUUID = "7B0F7A9C-9A34-4F0C-8E43-0D1C2B3A4F5E"
        let verdict = Self.verdict(live: live, backup: copy)
        #expect(verdict.status == .held && verdict.summary.hasSuffix("model hashes equal, new store UUID 7B0F7A9C-9A34-4F0C-8E43-0D1C2B3A4F5E"), "\(verdict)")
    }

    @Test func anotherModelsHashesAreViolated() throws {
        let scratch = try Scratch("metadata-violated")
        let live = try StoreState.read(try HandBuilt.tinyStore(scratch, "live/Library.sqlite"))
        var generator = StoreGenerator(objects: 12, blobFraction: 0, seed: 1)
        generator.inheritance = true
        let other = scratch.path("backup-0/Library.sqlite")
        try generator.generate(at: other)
        let copy = try StoreState.read(other)
        #expect(copy.versionHashes != live.versionHashes, "the inheritance model's entities differ from the library's")
        let verdict = Self.verdict(live: live, backup: copy)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("backup-0 (command): model version hashes differ from the live store's"), "\(verdict)")
        #expect(verdict.evidence == ["backup-0 (command): entities \(copy.versionHashes.keys.sorted()) vs \(live.versionHashes.keys.sorted())"])
        #expect(verdict.consequence == MetadataPreserved().consequence)
        // The same entities, one of them at another version (a store migrated to a new model version).
        var migrated = live
        let entity = try #require(live.versionHashes.keys.sorted().first)
        migrated.versionHashes[entity] = Data(repeating: 7, count: 32)
        #expect(Self.verdict(live: live, backup: migrated).status == .violated, "one entity's hash differs")
    }

    @Test func withoutACompletedBackupItIsNotExercised() {
        let verdict = HandBuilt.verdict(HandBuilt.record(), Self.name)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no completed backup in this run", "\(verdict)")
        #expect(Self.verdict(live: nil, backup: HandBuilt.state(1)).status == .notApplicable, "nothing to compare with without the live store's metadata")
    }
}
