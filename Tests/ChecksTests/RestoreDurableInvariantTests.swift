@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreCheck
import Testing

/// `restore-durable` on records built by hand: a restore reported success, then the power failed. The live store
/// recovered after the crash, compared with the backup as a run compares them (tiny real stores): equal holds;
/// a note the crash took is violated, with the op log's cause; a store that cannot be read after the crash is
/// violated; a run without a crash after a finished restore is not exercised.
@Suite struct RestoreDurableInvariantTests {
    static let name = "restore-durable"
    static let crash = "crash (keep-none) right after restore-1"
    static let cause = "rename /Library.sqlite.tmp -> /Library.sqlite by restore-1 (command) was never followed by an fsync of its directory"

    static func verdict(after comparison: Measured<CheckReport>?) -> Verdict {
        var record = HandBuilt.record()
        var restore = HandBuilt.restore()
        if let comparison {
            restore.restore?.afterCrash = RestoreAfterCrash(crash: Self.crash, comparison: comparison,
                                                             loss: LossRecord(operations: [], cause: Self.cause))
        }
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)), restore]
        return HandBuilt.verdict(record, Self.name)
    }

    /// The live store after the crash (a copy of the backup, less `lost` notes) compared with the backup.
    static func comparison(_ scratch: Scratch, lost: Int) throws -> (Measured<CheckReport>, [UUID]) {
        let backup = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite")
        let recovered = try HandBuilt.copy(backup, to: "live/Library.sqlite", in: scratch)
        let gone = try HandBuilt.deleteNotes(recovered, count: lost)
        return (Measure.comparison(recovered, against: backup), gone)
    }

    @Test func aRestoreThatSurvivesTheCrashHolds() throws {
        let (comparison, _) = try Self.comparison(try Scratch("restore-durable-held"), lost: 0)
        let verdict = Self.verdict(after: comparison)
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): restore-1 (command): still equals the backup after the crash \(Self.crash)", "\(verdict)")
    }

    @Test func aRestoreTheCrashUndidIsViolatedWithItsCause() throws {
        let (comparison, gone) = try Self.comparison(try Scratch("restore-durable-violated"), lost: 1)
        let verdict = Self.verdict(after: comparison)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("restore-1 (command): finished, then undone by the crash that followed it"), "\(verdict)")
        #expect(verdict.evidence.first == "restore-1 (command): equal to the backup when it reported success; after the crash \(Self.crash) the live store differs", "\(verdict.evidence)")
        #expect(verdict.evidence.dropFirst().contains { $0.hasPrefix("restore-1 (command) after the crash: violation missing-object Note") && $0.contains(gone[0].uuidString) }, "\(verdict.evidence)")
        #expect(verdict.cause == Self.cause && verdict.severity == .lostOnPowerCut && verdict.fix == RestoreDurable().fix)
        let one = Finding(.violation, .missingObject, entity: "Note", object: HandBuilt.ids[2].uuidString, "in the expected store only")
        #expect(Self.verdict(after: Measured(HandBuilt.report(against: "/b/backup-0/Library.sqlite", [one]))).evidence.last
            == "restore-1 (command) after the crash: \(one)", "a single difference is enough")
    }

    /// The restore put back the database only; the app's attachment file, which writer-2 renamed into place and
    /// never synced, was left in place and the crash took it: still the restore's finding, named as inherited.
    @Test func anAttachmentTheAppNeverSyncedThatTheRestoreLeftInPlaceIsNamedAsSuch() {
        let file = HandBuilt.ids[5].uuidString
        let missing = Finding(.violation, .missingExternalFile, entity: "Note", object: "Z_PK 4",
                              "ZATTACHMENT refers to /s/.Library_SUPPORT/_EXTERNAL_DATA/\(file), which is missing")
        func verdict(actor: String, kind: ActorKind) -> Verdict {
            var record = HandBuilt.record()
            var restore = HandBuilt.restore()
            let lost = LossRecord.Operation(what: "rename /.Library_SUPPORT/_EXTERNAL_DATA/\(file).interim -> /.Library_SUPPORT/_EXTERNAL_DATA/\(file)",
                                            path: "/.Library_SUPPORT/_EXTERNAL_DATA/\(file).interim", actor: actor, kind: kind, barrier: "never")
            restore.restore?.afterCrash = RestoreAfterCrash(crash: Self.crash, comparison: Measured(HandBuilt.report(against: "/b/backup-0/Library.sqlite", [missing])),
                                                             loss: LossRecord(operations: [lost], cause: Self.cause))
            record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)), restore]
            return HandBuilt.verdict(record, Self.name)
        }
        let apps = verdict(actor: "writer-2", kind: .app)
        #expect(apps.status == .violated && apps.summary.hasSuffix("finished, then undone by the crash that followed it, in attachment files the app wrote and never synced, which the restore left in place instead of restoring the backup's"), "\(apps)")
        #expect(apps.evidence.contains { $0.hasPrefix("restore-1 (command): 1 of the 1 difference(s) are attachment files the app wrote and never synced (\(file))") }, "\(apps.evidence)")
        // The restore's own unsynced copy of the file is its own loss, said as before.
        let own = verdict(actor: "restore-1 (cp)", kind: .program)
        #expect(own.status == .violated && own.summary.hasSuffix("restore-1 (command): finished, then undone by the crash that followed it") && own.evidence.count == 2, "\(own)")
    }

    /// A restore that already differed from the backup when it reported success (an attachment it never put
    /// back): that difference is restore-equals-backup's, and the crash is judged only on what it changed.
    @Test func aDifferenceTheRestoreAlreadyHadIsNotTheCrashs() {
        let missing = Finding(.violation, .missingExternalFile, entity: "Note", object: "Z_PK 4",
                              "ZATTACHMENT refers to /s/.Library_SUPPORT/_EXTERNAL_DATA/\(HandBuilt.ids[5].uuidString), which is missing")
        let lostNote = Finding(.violation, .missingObject, entity: "Note", object: HandBuilt.ids[2].uuidString, "in the expected store only")
        func verdict(after: [Finding]) -> Verdict {
            var record = HandBuilt.record()
            var restore = HandBuilt.restore()
            restore.restore?.comparison = Measured(HandBuilt.report(against: "/b/backup-0/Library.sqlite", [missing]))
            restore.restore?.afterCrash = RestoreAfterCrash(crash: Self.crash, comparison: Measured(HandBuilt.report(against: "/b/backup-0/Library.sqlite", after)),
                                                             loss: LossRecord(operations: [], cause: Self.cause))
            record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(3)), restore]
            return HandBuilt.verdict(record, Self.name)
        }
        let same = verdict(after: [missing])
        #expect(same.status == .held && same.summary.hasSuffix("as far as it did before it (1 difference(s) it already had when it reported success set aside: restore-equals-backup's finding)"), "\(same)")
        let more = verdict(after: [missing, lostNote])
        #expect(more.status == .violated && more.evidence.first == "restore-1 (command): after the crash \(Self.crash) the live store differs from the backup in 1 more way(s) than when it reported success (1 difference(s) it already had when it reported success set aside: restore-equals-backup's finding)", "\(more.evidence)")
        #expect(more.evidence.dropFirst() == ["restore-1 (command) after the crash: \(lostNote)"], "\(more.evidence)")
    }

    @Test func aStoreUnreadableAfterTheCrashIsViolated() {
        let verdict = Self.verdict(after: Measured(error: "file is not a database"))
        #expect(verdict.status == .violated && verdict.cause == Self.cause, "\(verdict)")
        #expect(verdict.evidence == ["restore-1 (command): the live store cannot be read after the crash \(Self.crash): file is not a database"])
    }

    @Test func withoutACrashAfterAFinishedRestoreItIsNotExercised() {
        let verdict = Self.verdict(after: nil)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no crash after a finished restore in this run", "\(verdict)")
    }
}
