@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreCheck
import StoreModel
import Testing

/// `blobs-carried` on records built by hand, over tiny real stores with attachments: every reference resolves
/// (held); a backup that lacks one attachment file is violated, naming it; a restore of that backup that carries
/// it faithfully is not blamed for what the backup lacked; a run that measured no store is not exercised.
@Suite struct BlobsCarriedInvariantTests {
    static let name = "blobs-carried"

    /// A tiny store with attachments, and one attachment file removed from it (`removed`: its name).
    static func backupLackingAFile(_ scratch: Scratch) throws -> (url: URL, removed: String) {
        let url = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite", blobs: true)
        let files = StoreFiles(url)
        let removed = try #require(files.externalFileNames().first)
        try FileManager.default.removeItem(at: files.externalFile(removed))
        return (url, removed)
    }

    @Test func aBackupWithEveryAttachmentHolds() throws {
        let scratch = try Scratch("blobs-held")
        let url = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite", blobs: true)
        let store = HandBuilt.measured(url, label: "backup-0 (command)")
        let references = try #require(store.checks.value?.externalReferences)
        #expect(references > 0, "the tiny store has attachments")
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: store)]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): backup-0 (command): \(references) external references resolve", "\(verdict)")
    }

    @Test func aBackupLackingAnAttachmentFileIsViolatedNamingIt() throws {
        let scratch = try Scratch("blobs-violated")
        let (url, removed) = try Self.backupLackingAFile(scratch)
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: HandBuilt.measured(url, label: "backup-0 (command)"))]
        let judgement = Judge.judge(record)
        let verdict = HandBuilt.verdict(judgement, Self.name)
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 1 check(s): backup-0 (command): 1 finding(s)", "\(verdict)")
        #expect(verdict.evidence.count == 1 && verdict.evidence[0].hasPrefix("backup-0 (command): violation missing-external-file Note"), "\(verdict.evidence)")
        #expect(verdict.evidence[0].contains(removed), "\(verdict.evidence)")
        #expect(verdict.consequence == BlobsCarried().consequence && !judgement.expectationMet)
    }

    @Test func aRestoreIsNotBlamedForAFileItsBackupLacked() throws {
        let scratch = try Scratch("blobs-inherited")
        let (backup, removed) = try Self.backupLackingAFile(scratch)
        let restored = try HandBuilt.copy(backup, to: "live/Library.sqlite", in: scratch)
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: HandBuilt.measured(backup, label: "backup-0 (command)")),
                        HandBuilt.restore(live: HandBuilt.measured(restored, label: "live store after restore-1 (command)"))]
        let checks = BlobsCarried().check(JudgedRun(record))
        #expect(checks.map(\.status) == [.violated, .held], "\(checks)")
        #expect(checks[1].summary.hasPrefix("live store after restore-1 (command): "), "\(checks[1])")
        #expect(checks[1].summary.hasSuffix("; 1 missing file(s) are not this store's doing (the backup it was restored from lacked them, or the app's own writes lost them: app-durable)"))
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.evidence.allSatisfy { $0.hasPrefix("backup-0 (command)") && $0.contains(removed) }, "\(verdict)")
    }

    @Test func orphanFilesAreEvidenceNotAFinding() throws {
        let scratch = try Scratch("blobs-orphan")
        let url = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite", blobs: true)
        try Data("stray".utf8).write(to: StoreFiles(url).externalFile("STRAY"))
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: HandBuilt.measured(url, label: "backup-0 (command)"))]
        let checks = BlobsCarried().check(JudgedRun(record))
        #expect(checks.map(\.status) == [.held], "\(checks)")
        #expect(checks.first?.evidence.count == 1 && checks.first?.evidence.first?.contains("orphan-external-file") == true, "\(checks)")
    }

    @Test func aRunThatMeasuredNoStoreIsNotExercised() {
        let verdict = HandBuilt.verdict(HandBuilt.record(), Self.name)
        #expect(verdict.status == .notApplicable)
        #expect(verdict.summary == "not exercised: no store was measured in this run (no backup, restore, crash or end-of-run reading)")
    }
}
