import Checks
import Testing

/// `relocation-carries-commits` from plain values: where a kept process's commits went is said from the old
/// store's files, and a process that exited non-zero is a finding of its own.
@Suite struct RelocationCheckTests {
    static let label = "relocate-0 (relocate-replace-only)"

    @Test func everyCommitInTheMovedStoreHolds() {
        let verdict = RelocationCheck.verdict(label: Self.label, newPlace: "/v/AppGroup/Library.sqlite", processes: [
            .init(name: "writer-1", kept: false, acknowledged: 20, acknowledgedBeforeMove: 20, reflected: 20),
            .init(name: "writer-2", kept: false, acknowledged: 18, acknowledgedBeforeMove: 18, reflected: 18),
        ], old: .init(path: "/v/Library.sqlite", database: 0, wal: 0, shm: nil))
        #expect(verdict.status == .held)
        #expect(verdict.summary.contains("all 38 transaction(s) acknowledged by 2 writer(s)"))
    }

    @Test func aKeptWritersLaterCommitsAreTracedToAnOrphanedWAL() {
        let verdict = RelocationCheck.verdict(label: Self.label, newPlace: "/v/AppGroup/Library.sqlite", processes: [
            .init(name: "writer-1", kept: true, acknowledged: 120, acknowledgedBeforeMove: 20, reflected: 21),
        ], old: .init(path: "/v/Library.sqlite", database: nil, wal: 4_120_032, shm: 32_768))
        #expect(verdict.status == .violated)
        #expect(verdict.evidence.first?.contains("writer-1 (kept the old store open across the move) acknowledged 120 transaction(s)") == true)
        #expect(verdict.evidence.first?.contains("holds 21; the other 99, acknowledged after the move took its copy, are in an orphaned Library.sqlite-wal (4120032 bytes) with no Library.sqlite beside it") == true)
    }

    @Test func whereaboutsFollowTheOldFiles() {
        func whereabouts(_ old: RelocationCheck.OldFiles, heldThere: Int? = nil) -> String {
            let verdict = RelocationCheck.verdict(label: Self.label, newPlace: "/v/G/L.sqlite", processes: [
                .init(name: "writer-1", kept: true, acknowledged: 10, acknowledgedBeforeMove: 2, reflected: 2, reflectedInOldStore: heldThere),
            ], old: old)
            return verdict.evidence.first ?? ""
        }
        #expect(whereabouts(.init(path: "/v/L.sqlite", database: 0, wal: 8192, shm: nil)).contains("beside a L.sqlite truncated to 0 bytes"))
        #expect(whereabouts(.init(path: "/v/L.sqlite", database: 40960, wal: 0, shm: nil), heldThere: 10).contains("in the old store at /v/L.sqlite, which holds all 10 of its transactions, where the app no longer looks"))
        #expect(whereabouts(.init(path: "/v/L.sqlite", database: nil, wal: nil, shm: nil)).contains("nowhere: no file of the old store at /v/L.sqlite is left"))
    }

    @Test func aProcessThatExitedNonZeroIsAFindingEvenWithNothingLost() {
        let verdict = RelocationCheck.verdict(label: Self.label, newPlace: "/v/G/L.sqlite", processes: [
            .init(name: "writer-1", kept: true, acknowledged: 5, acknowledgedBeforeMove: 5, reflected: 5,
                  failure: "exited with status 1: Error: no such table: ZNOTE"),
        ], old: .init(path: "/v/L.sqlite", database: 0, wal: nil, shm: nil))
        #expect(verdict.status == .violated)
        #expect(verdict.evidence == ["\(Self.label): writer-1 exited with status 1: Error: no such table: ZNOTE"])
        // The summary says what the evidence shows: a process that failed, not commits that went missing.
        #expect(verdict.summary == "\(Self.label): no acknowledged commit is missing, but 1 process(es) of the app failed across the move")
    }

    @Test func aKeptReaderThatReadTheOldStoreAfterTheMoveIsReported() {
        let verdict = RelocationCheck.verdict(label: Self.label, newPlace: "/v/G/L.sqlite", processes: [
            .init(name: "reader-1", kept: true, readsAfterMove: 7),
        ], old: .init(path: "/v/L.sqlite", database: 4096, wal: nil, shm: nil))
        #expect(verdict.status == .violated)
        #expect(verdict.evidence.first?.contains("reader-1 kept the old store open and read it 7 time(s) after the move") == true)
    }

    @Test func nothingRunningIsNotApplicable() {
        let verdict = RelocationCheck.verdict(label: Self.label, newPlace: "/v/G/L.sqlite", processes: [],
                                              old: .init(path: "/v/L.sqlite", database: nil, wal: nil, shm: nil))
        #expect(verdict.status == .notApplicable)
    }
}
