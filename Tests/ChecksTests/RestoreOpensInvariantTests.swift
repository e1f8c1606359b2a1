@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreModel
import Testing

/// `restore-opens` on records built by hand: the app's first open of a tiny real restored store, measured as a
/// run measures it, holds; no store where the restore should have left one (Core Data makes a new, empty one)
/// and a store the app cannot open are violated; a run without a completed restore is not exercised.
@Suite struct RestoreOpensInvariantTests {
    static let name = "restore-opens"

    static func verdict(open: Measured<OpenedStore>?, backupObjects: Int = 3) -> Verdict {
        var record = HandBuilt.record()
        var restore = HandBuilt.restore()
        restore.restore?.open = open
        record.steps = [HandBuilt.backup("backup-0", start: 3.5, end: 3.6, state: HandBuilt.state(backupObjects)), restore]
        return HandBuilt.verdict(record, Self.name)
    }

    static func open(_ url: URL) -> Measured<OpenedStore> {
        Measure.open(url, model: .library, options: .lightweightMigration, recovery: "fail")
    }

    @Test func aRestoredStoreTheAppOpensHolds() throws {
        let scratch = try Scratch("opens-held")
        let open = Self.open(try HandBuilt.tinyStore(scratch, "live/Library.sqlite"))
        let objects = try #require(open.value?.objects)
        let verdict = Self.verdict(open: open)
        #expect(verdict.status == .held, "\(verdict)")
        #expect(verdict.summary.hasPrefix("held in 1 check(s): restore-1 (command): opens with ") && verdict.summary.hasSuffix(", \(objects) objects"), "\(verdict.summary)")
    }

    @Test func noStoreAfterTheRestoreOpensEmptyAndIsViolated() throws {
        let scratch = try Scratch("opens-missing")
        let verdict = Self.verdict(open: Self.open(scratch.path("live/Library.sqlite")))
        #expect(verdict.status == .violated, "\(verdict)")
        #expect(verdict.summary.hasSuffix("restore-1 (command): opened empty (no store at Library.sqlite: addPersistentStore creates a new one)"), "\(verdict.summary)")
        #expect(verdict.evidence.last == "the backup held 3 objects" && verdict.evidence.first?.hasPrefix("restore-1 (command): no store at ") == true, "\(verdict.evidence)")
        #expect(verdict.severity == .loudFailure && verdict.fix == RestoreOpens().fix)
        #expect(Self.verdict(open: Self.open(scratch.path("live/Library.sqlite")), backupObjects: 0).status == .held, "an empty backup may open empty")
    }

    @Test func aStoreTheAppCannotOpenIsViolated() {
        let verdict = Self.verdict(open: Measured(error: "error 134100: the model used to open Library.sqlite is not the one it was written with"))
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("restore-1 (command): the app cannot open the restored store"), "\(verdict)")
        #expect(verdict.evidence == ["restore-1 (command): error 134100: the model used to open Library.sqlite is not the one it was written with"])
    }

    @Test func withoutACompletedRestoreItIsNotExercised() {
        let verdict = Self.verdict(open: nil)
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no completed restore in this run", "\(verdict)")
    }
}
