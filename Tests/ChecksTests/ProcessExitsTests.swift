import Checks
import Testing

/// A writer or reader that exits non-zero on its own is a finding of the invariant its work stands for; one the
/// run stopped (a signal: a negative status) or that exited cleanly is not.
@Suite struct ProcessExitsTests {
    @Test func nonZeroExitsAreFindingsOfTheirProcessesInvariant() {
        let verdicts = ProcessExits.verdicts([
            .init(name: "writer-2", status: 2, outputTail: "Error: SQLite error 26: file is not a database"),
            .init(name: "reader-1", status: 1, outputTail: ""),
            .init(name: "writer-1", status: 0, outputTail: ""),
            .init(name: "writer-3", status: -9, outputTail: ""),
            .init(name: "backup-0", status: 1, outputTail: "failed"),
        ])
        #expect(verdicts.map(\.invariant) == ["live-store-unaffected", "reader-consistent"])
        #expect(verdicts.allSatisfy { $0.status == .violated })
        #expect(verdicts[0].evidence == ["writer-2 exited with status 2: Error: SQLite error 26: file is not a database"])
        #expect(verdicts[1].summary == "reader-1 exited with status 1")
    }
}
