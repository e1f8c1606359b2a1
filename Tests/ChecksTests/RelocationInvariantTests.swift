@testable import Checks
import Foundation
import Testing

/// `relocation-completes` and `relocation-carries-commits` through the judge, on records built by hand (the pure
/// verdict is in `RelocationCheckTests`): a move that finished holds, and one that did not is violated with its
/// failure; writer 1's three commits, acknowledged before the move at 3.5 s, must be in the moved store (held),
/// and a moved store holding one of them, or one that cannot be read, is violated; a run without a move is not
/// exercised.
@Suite struct RelocationInvariantTests {
    static let label = "relocate-0 (relocate-replace-only)"

    static func operation(succeeded: Bool, details: [String: String]) -> OperationSummary {
        OperationSummary(name: "relocate-0", action: "relocate", strategy: "relocate-replace-only", start: 3.5, end: 4.0, succeeded: succeeded,
                         store: "/v/Library.sqlite", details: details, error: succeeded ? nil : "relocate failed")
    }

    static func move(moved: StoreState?, kept: [String] = [], final: StoreState? = nil) -> RelocationRecord {
        RelocationRecord(label: Self.label, from: "/v/Library.sqlite", to: "/v/AppGroup/Library.sqlite", start: 3.5, end: 4.0, round: 0,
                         kept: kept, moved: moved, final: final, old: nil,
                         oldFiles: .init(path: "/v/Library.sqlite", database: nil, wal: nil, shm: nil), readsAfterMove: [:], failures: [:])
    }

    static func record(operations: [OperationSummary] = [], relocations: [RelocationRecord] = []) -> RunRecord {
        var record = HandBuilt.record()
        record.operations = operations
        record.relocations = relocations
        return record
    }

    static func verdict(_ name: String, operations: [OperationSummary] = [], relocations: [RelocationRecord] = []) -> Verdict {
        HandBuilt.verdict(record(operations: operations, relocations: relocations), name)
    }

    @Test func aMoveThatFinishedCompletesWithWhatItLeftAsEvidence() {
        let record = Self.record(operations: [Self.operation(succeeded: true, details: ["leftovers": "Library.sqlite-shm"])])
        let verdict = HandBuilt.verdict(record, "relocation-completes")
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): \(Self.label) finished in 0.50 s", "\(verdict)")
        let checks = RelocationCompletes().check(JudgedRun(record))
        #expect(checks.first?.evidence == ["\(Self.label): left behind beside the old store: Library.sqlite-shm"], "\(checks)")
    }

    @Test func aMoveThatDidNotFinishIsViolated() {
        let verdict = Self.verdict("relocation-completes", operations: [Self.operation(succeeded: false, details: ["failure": "Error 134020\nthe store was not removed"])])
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 1 check(s): \(Self.label) did not finish", "\(verdict)")
        #expect(verdict.evidence == ["Error 134020", "the store was not removed"])
        #expect(verdict.severity == .loudFailure && verdict.fix == RelocationCompletes().fix)
    }

    @Test func everyAcknowledgedCommitInTheMovedStoreHolds() {
        let verdict = Self.verdict("relocation-carries-commits", relocations: [Self.move(moved: HandBuilt.state(3))])
        #expect(verdict.status == .held, "\(verdict)")
        #expect(verdict.summary == "held in 1 check(s): \(Self.label): the store at /v/AppGroup/Library.sqlite holds all 3 transaction(s) acknowledged by 1 writer(s) of the moved store", "\(verdict.summary)")
    }

    @Test func commitsMissingFromTheMovedStoreAreViolated() {
        let verdict = Self.verdict("relocation-carries-commits", relocations: [Self.move(moved: HandBuilt.state(1))])
        #expect(verdict.status == .violated && verdict.summary.hasSuffix("\(Self.label): acknowledged commits are not where the app looks after the move"), "\(verdict)")
        #expect(verdict.evidence == ["\(Self.label): writer-1 acknowledged 3 transaction(s); the store the app uses at /v/AppGroup/Library.sqlite holds 1; 2 acknowledged before the move began did not move with the store"],
                "\(verdict.evidence)")
        let unreadable = Self.verdict("relocation-carries-commits", relocations: [Self.move(moved: nil)])
        #expect(unreadable.status == .violated && unreadable.evidence.last == "\(Self.label): the store at Library.sqlite cannot be read", "\(unreadable.evidence)")
    }

    @Test func withoutAMoveNeitherIsExercised() {
        #expect(Self.verdict("relocation-completes").summary == "not exercised: no relocate step in this run")
        #expect(Self.verdict("relocation-carries-commits").summary == "not exercised: no relocate step finished in this run")
    }
}
