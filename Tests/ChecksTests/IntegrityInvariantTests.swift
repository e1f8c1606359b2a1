@testable import Checks
import Foundation
import LifeboatTestSupport
@testable import StoreCheck
import Testing

/// `integrity` on records built by hand, over tiny real stores measured as a run measures them: a whole store
/// holds; a store whose pages were overwritten, a backup that cannot be opened as a store, and a store that
/// could not be checked at all are violated, each naming the store; a run that measured no store is not
/// exercised, saying why.
@Suite struct IntegrityInvariantTests {
    static let name = "integrity"

    /// Overwrites pages 2 and 3 of the database with a pattern (page 1, the header, stays: SQLite opens it and
    /// finds the damage).
    static func damagePages(_ url: URL) throws {
        let handle = try FileHandle(forUpdating: url)
        try handle.seek(toOffset: 4096)
        handle.write(Data(repeating: 0xA5, count: 4096 * 2))
        try handle.close()
    }

    @Test func aWholeBackupHolds() throws {
        let scratch = try Scratch("integrity-held")
        let url = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite")
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: HandBuilt.measured(url, label: "backup-0 (command)"))]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .held, "\(verdict)")
        #expect(verdict.summary == "held in 1 check(s): backup-0 (command): integrity_check ok, bookkeeping consistent", "\(verdict.summary)")
    }

    @Test func aBackupWithDamagedPagesIsViolatedWithTheCheckersFindings() throws {
        let scratch = try Scratch("integrity-pages")
        let url = try HandBuilt.tinyStore(scratch, "backup-0/Library.sqlite", objects: 40)
        try Self.damagePages(url)
        var record = HandBuilt.record()
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: HandBuilt.measured(url, label: "backup-0 (command)"))]
        let judgement = Judge.judge(record)
        let verdict = HandBuilt.verdict(judgement, Self.name)
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.owner == nil && verdict.fix == Integrity().fix && verdict.consequence == Integrity().consequence)
        #expect(!verdict.evidence.isEmpty && verdict.evidence.allSatisfy { $0.hasPrefix("backup-0 (command): ") }, "\(verdict.evidence)")
        let broken = ["integrity", "bookkeeping", "unreadable"].map { "violation \($0)" }
        #expect(verdict.evidence.contains { line in broken.contains { line.contains($0) } }, "\(verdict.evidence)")
        #expect(!judgement.expectationMet)
    }

    @Test func aBackupThatCannotBeOpenedAsAStoreIsViolated() {
        var record = HandBuilt.record()
        let store = StoreMeasurement(label: "backup-0 (command)", path: "/b/backup-0/Library.sqlite",
                                     state: Measured(error: "file is not a database"), checks: Measured(HandBuilt.report()))
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, store: store)]
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 2 check(s): backup-0 (command): the backup cannot be opened as a store", "\(verdict)")
    }

    @Test func aStoreThatCouldNotBeCheckedIsViolatedAsNoStore() {
        var record = HandBuilt.record()
        record.liveAtEnd = StoreMeasurement(label: "live store at the end", path: "/s/Library.sqlite", state: nil,
                                            checks: Measured(error: "missing store /s/Library.sqlite"))
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("live store at the end: no store"), "\(verdict)")
        #expect(verdict.evidence == ["missing store /s/Library.sqlite"])
    }

    @Test func aRestoredStoreAndTheLiveStoreAfterACrashAreJudgedToo() {
        var record = HandBuilt.record()
        let broken = Finding(.violation, .integrity, "integrity_check: Page 7: btreeInitPage() returns error code 11")
        record.steps = [HandBuilt.backup("backup-0", start: 1, end: 2, state: HandBuilt.state(1)),
                        HandBuilt.restore(live: HandBuilt.clean("live store after restore-1 (command)", findings: [broken]))]
        record.crash = HandBuilt.crash(live: HandBuilt.clean("live store after the crash", state: HandBuilt.state(3)))
        let verdict = HandBuilt.verdict(record, Self.name)
        #expect(verdict.status == .violated && verdict.summary.hasPrefix("violated in 1 of 3 check(s)"), "\(verdict)")
        #expect(verdict.evidence == ["live store after restore-1 (command): \(broken)"])
    }

    @Test func aRunThatMeasuredNoStoreIsNotExercised() {
        let verdict = HandBuilt.verdict(HandBuilt.record(), Self.name)
        #expect(verdict.status == .notApplicable)
        #expect(verdict.summary == "not exercised: no store was measured in this run (no backup, restore, crash or end-of-run reading)")
    }
}
