import Foundation
import Scenario
import Testing

/// `expect_metrics:` (docs/scenario-file.md): bounds on a step's measurements and ratios between steps read,
/// render back, bring `metrics-within-bounds` into a scenario that lists its invariants, and refuse mistakes at
/// their line and column.
@Suite struct MetricExpectationKeysTests {
    static let scenario = """
        name: x
        writers: {count: 0}
        schedule:
          - backup: replace
          - backup: migrate
        expect_metrics:
          - step: 0
            peak_memory: {max: 64MiB}
            seconds: {min: 0.01, max: 30}
          - ratio: peak_memory
            of: 1
            to: 0
            min: 4
        invariants: [backup-completes]
        """

    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: Self.scenario)
        #expect(parsed.expectMetrics == [
            .init(metric: "peak_memory", step: 0, max: 64 * 1_048_576),
            .init(metric: "seconds", step: 0, min: 0.01, max: 30),
            .init(metric: "peak_memory", step: 1, to: 0, min: 4),
        ])
        #expect(parsed.invariants == ["backup-completes", "metrics-within-bounds"])
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    static let head = "name: x\nschedule:\n  - backup: replace\n  - backup: migrate\n  - checkpoint: full\nexpect_metrics:\n"

    @Test(arguments: [
        (MetricExpectationKeysTests.head + "  - step: 7\n    seconds: {max: 1}\n", 7, 11, "must name a backup, restore or relocate entry"),
        (MetricExpectationKeysTests.head + "  - step: 2\n    seconds: {max: 1}\n", 7, 11, "must name a backup, restore or relocate entry"),
        (MetricExpectationKeysTests.head + "  - step: 0\n    peak_memory: {max: lots}\n", 8, 24, "must be a size such as 4096, 128KiB or 2MB"),
        (MetricExpectationKeysTests.head + "  - step: 0\n    seconds: {min: 5, max: 1}\n", 8, 28, "max must not be below its min"),
        (MetricExpectationKeysTests.head + "  - step: 0\n    seconds: {}\n", 8, 14, "needs `min:`, `max:` or both"),
        (MetricExpectationKeysTests.head + "  - step: 0\n", 7, 5, "needs at least one of peak_memory, seconds, bytes_loaded"),
        (MetricExpectationKeysTests.head + "  - step: 0\n    memory: {max: 1}\n", 8, 5, "unknown key 'memory' in expect_metrics[0]"),
        (MetricExpectationKeysTests.head + "  - ratio: memory\n    of: 1\n    to: 0\n    min: 4\n", 7, 12, "ratio must be one of peak_memory, seconds, bytes_loaded"),
        (MetricExpectationKeysTests.head + "  - ratio: peak_memory\n    of: 1\n    min: 4\n", 7, 5, "a ratio needs `of: STEP` and `to: STEP`"),
        (MetricExpectationKeysTests.head + "  - ratio: peak_memory\n    of: 1\n    to: 1\n    min: 4\n", 9, 9, "a ratio of a step to itself"),
        (MetricExpectationKeysTests.head + "  - ratio: peak_memory\n    of: 1\n    to: 0\n    min: -1\n", 10, 10, "min must be between 0"),
        ("name: x\nexpect_metrics: {step: 0}\n", 2, 17, "expect_metrics must be a list"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3, amongAll: true)
    }
}
