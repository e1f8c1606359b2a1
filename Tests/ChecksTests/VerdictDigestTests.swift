import Checks
import Testing

/// A verdict over many checks stays readable: counts by kind and the first check, not one clause per check.
@Suite struct VerdictDigestTests {
    @Test func manyChecksAreCountedByKindWithTheFirstInFull() {
        let parts = (0..<300).map { Verdict("integrity", .held, "backup-\($0) (replace): integrity_check ok") }
            + [Verdict("integrity", .held, "live store at the end: bookkeeping consistent")]
        let combined = Verdict.combine("integrity", parts)
        #expect(combined.summary == "held in 301 check(s): 300× integrity_check ok; 1× bookkeeping consistent; first: backup-0 (replace): integrity_check ok")
    }

    @Test func fewChecksKeepTheirClausesAndCausesCarry() {
        var broken = Verdict("backup-durable", .violated, "backup-1 (cp): missing after the crash")
        broken.cause = "rename A -> B was never followed by an fsync of its directory"
        let combined = Verdict.combine("backup-durable", [Verdict("backup-durable", .held, "backup-0 (cp): reads back whole"), broken])
        #expect(combined.summary == "violated in 1 of 2 check(s): backup-1 (cp): missing after the crash")
        #expect(combined.cause == broken.cause)
    }
}
