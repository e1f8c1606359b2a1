import Foundation

/// `metrics-within-bounds`: the bounds a scenario states on its steps' measurements (`expect_metrics:`): peak
/// memory, time, bytes loaded, or a ratio between two steps. The pure check is `MetricsCheck`.
struct MetricsWithinBounds: Invariant {
    let name = "metrics-within-bounds"
    let fix = "choose the strategy whose cost fits (replace copies the file; migrate loads every object), or change the bound"
    let consequence = "the step costs more time or memory than the scenario allows"
    let severity = Severity.cost

    func check(_ run: JudgedRun) -> [Verdict] {
        let bounds = run.record.plan.metricBounds
        guard !bounds.isEmpty else { return [] }
        return MetricsCheck.verdicts(bounds, measured: run.record.stepMetrics.measured, labels: run.record.stepMetrics.labels)
    }

    func notExercised(_ run: JudgedRun) -> String { "no expect_metrics in this scenario" }
}
