@testable import Checks
import Foundation
import Testing

/// `metrics-within-bounds` through the judge, on records built by hand (the pure check is in
/// `MetricsCheckTests`): the scenario's `expect_metrics:` bounds on what the steps measured hold or are violated
/// naming the value; a step that measured nothing is violated; a scenario without bounds is not exercised.
@Suite struct MetricsWithinBoundsInvariantTests {
    static let name = "metrics-within-bounds"
    static let mib = 1_048_576.0

    static func verdict(_ bounds: [MetricsCheck.Bound]) -> Verdict {
        var record = HandBuilt.record(plan: HandBuilt.plan(metricBounds: bounds))
        record.stepMetrics.measured = [0: ["peak_memory": 32 * Self.mib, "seconds": 1.5]]
        record.stepMetrics.labels = [0: "backup-0 (replace)"]
        return HandBuilt.verdict(record, Self.name)
    }

    @Test func aMeasurementWithinItsBoundHolds() {
        let verdict = Self.verdict([.init(metric: "peak_memory", step: 0, max: 64 * Self.mib)])
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): peak_memory of backup-0 (replace) is 32.0 MiB (<= 64.0 MiB)", "\(verdict)")
    }

    @Test func aMeasurementPastItsBoundIsViolated() {
        let verdict = Self.verdict([.init(metric: "peak_memory", step: 0, max: 64 * Self.mib), .init(metric: "seconds", step: 0, max: 1)])
        #expect(verdict.status == .violated && verdict.summary == "violated in 1 of 2 check(s): seconds of backup-0 (replace) is 1.50 s, expected <= 1.00 s", "\(verdict)")
        #expect(verdict.evidence == ["seconds of backup-0 (replace) is 1.50 s, expected <= 1.00 s"])
        #expect(verdict.severity == .cost && verdict.fix == MetricsWithinBounds().fix)
        let unmeasured = Self.verdict([.init(metric: "bytes_loaded", step: 0, min: 1)])
        #expect(unmeasured.status == .violated && unmeasured.summary.hasSuffix("backup-0 (replace): no bytes_loaded measured"), "\(unmeasured)")
    }

    @Test func withoutBoundsItIsNotExercised() {
        let verdict = Self.verdict([])
        #expect(verdict.status == .notApplicable && verdict.summary == "not exercised: no expect_metrics in this scenario", "\(verdict)")
    }
}
