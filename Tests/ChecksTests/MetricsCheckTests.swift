import Checks
import Testing

/// `metrics-within-bounds` from plain measurements: a bound and a ratio, held and violated, and a step that
/// measured nothing.
@Suite struct MetricsCheckTests {
    static let measured: [Int: [String: Double]] = [0: ["peak_memory": 32 * 1_048_576, "seconds": 1.0],
                                                   1: ["peak_memory": 110 * 1_048_576, "seconds": 1.2, "bytes_loaded": 74_000_000]]
    static let labels = [0: "backup-0 (replace)", 1: "backup-1 (migrate)"]

    @Test func boundsAndRatiosHoldOrNameTheValue() {
        let verdicts = MetricsCheck.verdicts([
            .init(metric: "peak_memory", step: 0, max: 64 * 1_048_576),
            .init(metric: "peak_memory", step: 1, to: 0, min: 2),
            .init(metric: "peak_memory", step: 1, to: 0, min: 4),
            .init(metric: "seconds", step: 1, max: 1),
        ], measured: Self.measured, labels: Self.labels)
        #expect(verdicts.map(\.status) == [.held, .held, .violated, .violated])
        #expect(verdicts[0].summary == "peak_memory of backup-0 (replace) is 32.0 MiB (<= 64.0 MiB)")
        #expect(verdicts[2].summary == "peak_memory of backup-1 (migrate) / backup-0 (replace) (110.0 MiB / 32.0 MiB) is 3.44x, expected >= 4x")
        #expect(verdicts[3].summary == "seconds of backup-1 (migrate) is 1.20 s, expected <= 1.00 s")
    }

    @Test func aStepThatMeasuredNothingIsAViolation() {
        let verdicts = MetricsCheck.verdicts([.init(metric: "bytes_loaded", step: 0, min: 1)], measured: Self.measured, labels: Self.labels)
        #expect(verdicts.first?.status == .violated)
        #expect(verdicts.first?.summary == "backup-0 (replace): no bytes_loaded measured")
    }
}
