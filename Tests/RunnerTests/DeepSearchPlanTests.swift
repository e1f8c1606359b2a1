import Explore
import Testing

/// The deep search's plan from the probe's counts: the persistence-point crash walks first, each walk as long as
/// the program's calls of its kinds, none for kinds the program never called, and a crash after success per mode.
@Suite struct DeepSearchPlanTests {
    @Test func walksAreSizedByTheProgramsCalls() {
        let walks = DeepSearch.plan("backup", calls: ["write": 29, "fsync": 4, "fsyncdir": 1, "rename": 1, "unlink": 1, "copy_file_range": 0,
                                                      "flush": 6])
        let keepNone = walks.first { $0.action == "crash keep-none" && !$0.ops.isEmpty }
        #expect(walks.first == keepNone, "the persistence points come first, so a budget cuts the long write walks")
        #expect(keepNone?.count == 4 + 1 + 1 + 1)
        #expect(walks.first { $0.action == "errno ENOSPC" }?.count == 29)
        #expect(walks.first { $0.action == "fsync-fail-clean" }?.count == 4)
        #expect(walks.first { $0.action == "errno EIO" && $0.ops.contains("rename") }?.count == 4 + 1 + 1)
        #expect(walks.first { $0.action == "errno EIO" && $0.ops.contains("write") }?.count == 29, "no copy_file_range was counted")
        let closes = walks.first { $0.ops == ["flush"] }
        #expect(closes?.action == "errno EIO" && closes?.count == 6, "EIO at each of the program's closes")
        #expect(closes?.label == "backup: errno EIO at flush" && closes?.folder == "backup-errno-EIO-flush")
        #expect(!DeepSearch.plan("backup", calls: ["write": 3]).contains { $0.ops.contains("flush") }, "no close walk without a counted close")
        #expect(!walks.contains { $0.action.hasPrefix("delay") }, "no interleaving outside an interleaving target")
        let interleavings = DeepSearch.plan("backup+checkpoint-none", calls: ["open": 5, "write": 3], interleaving: "/Library.sqlite*")
        #expect(interleavings.map(\.count) == [5] && interleavings.first?.path == "/Library.sqlite*")
        let afterSuccess = walks.filter(\.ops.isEmpty)
        #expect(afterSuccess.map(\.action) == ["crash keep-none", "crash reorder", "crash torn"])
        #expect(afterSuccess.allSatisfy { $0.count == 1 && $0.label.hasSuffix("after it reported success") })
        #expect(Set(walks.map(\.folder)).count == walks.count, "every walk has a folder of its own")
    }

    @Test func aProgramThatWritesNothingHasOnlyTheCrashAfterSuccess() {
        let walks = DeepSearch.plan("restore", calls: [:])
        #expect(walks.allSatisfy { $0.ops.isEmpty })
        #expect(walks.count == 3)
    }
}
