import Checks
import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// `no-runaway`: once nothing is committed, a continuous backup tool's area stops growing. On a real store, with
/// a sidecar that keeps adding segments (a loop) and one that keeps overwriting its one copy of the store.
@Suite struct NoRunawayTests {
    static func samples(_ sizes: [(Double, Int64)]) -> [Invariants.SizeSample] { sizes.map { Invariants.SizeSample(t: $0.0, bytes: $0.1) } }

    @Test func steadyGrowthWithNothingCommittedIsTheFinding() {
        let growing = Self.samples((0...20).map { (Double($0), Int64($0) * 20_000) })
        let verdict = Invariants.noRunaway(growing, lastCommit: 2, end: 20, area: "area")
        #expect(verdict.status == .violated && verdict.evidence.first?.contains("20000 bytes/s") == true, "\(verdict)")
    }

    /// One last snapshot after the settle time, then nothing (one third grew); slow growth under the slack;
    /// retention shrinking the area.
    static let settling: [[Invariants.SizeSample]] = [
        samples([(7, 1_000), (8, 500_000), (9, 500_000), (12, 500_000), (15, 500_000), (20, 500_000)]),
        samples((7...20).map { (Double($0), Int64($0) * 1_000) }),
        samples((7...20).map { (Double($0), Int64(1_000_000 - $0 * 10_000)) }),
    ]

    @Test(arguments: settling)
    func aToolThatSettlesHolds(_ samples: [Invariants.SizeSample]) {
        #expect(Invariants.noRunaway(samples, lastCommit: 2, end: 20, area: "area").status == .held)
    }

    @Test func tooShortAnIdleWindowJudgesNothing() {
        let verdict = Invariants.noRunaway(Self.samples((0...10).map { (Double($0), Int64($0) * 20_000) }), lastCommit: 2, end: 10, area: "area")
        #expect(verdict.status == .notApplicable && verdict.summary.contains("stop: at_seconds"))
    }

    static func scenario(sidecar: String, expect: String) throws -> Scenario {
        try ScenarioParser.parse(yaml: """
            name: no-runaway-\(expect == "pass" ? "settles" : "loops")
            store: {objects: 40, blob_fraction: 0}
            writers: {count: 1, transactions: 40, rate: 40, blob_fraction: 0, checkpoint: none}
            sidecars:
              - name: shipper
                command: \(sidecar)
                stop: at_seconds 14
            schedule:
              - backup: command
                command: cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_DIR/"
                at_seconds: 15
            invariants: [no-runaway]
            time_limit: 60
            expect: \(expect)
            """, file: "no-runaway.yaml")
    }

    @Test func aSidecarThatKeepsAddingIsCaughtAndOneThatOverwritesHolds() throws {
        let scratch = try Scratch("no-runaway")
        let loops = try Self.scenario(sidecar: #"'i=0; while :; do i=$((i+1)); head -c 40000 /dev/urandom > "$LIFEBOAT_BACKUP_ROOT/segment-$i"; sleep 0.25; done'"#,
                                      expect: "violation no-runaway")
        let (caught, _) = try DrillTests.run(loops, file: scratch.path("loops.yaml").path, scratch: scratch)
        let verdict = try #require(caught.verdicts.first { $0.invariant == "no-runaway" })
        #expect(caught.expectationMet && verdict.status == .violated, "\(verdict)")
        let settles = try Self.scenario(sidecar: #"'while :; do cp "$LIFEBOAT_STORE" "$LIFEBOAT_BACKUP_ROOT/copy.sqlite"; sleep 0.25; done'"#, expect: "pass")
        let (held, _) = try DrillTests.run(settles, file: scratch.path("settles.yaml").path, scratch: scratch)
        #expect(held.expectationMet && held.verdicts.first { $0.invariant == "no-runaway" }?.status == .held, "\(held.verdicts)")
    }
}
