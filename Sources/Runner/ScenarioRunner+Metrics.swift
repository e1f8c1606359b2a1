import Checks
import Foundation
import Scenario

extension ScenarioRunner {
    /// `metrics-within-bounds` over the scenario's `expect_metrics:`, from what each step measured (its first run):
    /// `peak_memory` (the step's process's peak RSS), `seconds` (wall time), `bytes_loaded` (a migrate's).
    func recordMetricVerdicts() {
        guard !scenario.expectMetrics.isEmpty else { return }
        var measured: [Int: [String: Double]] = [:]
        var labels: [Int: String] = [:]
        for (index, step) in scenario.schedule.enumerated() {
            let name = "\(step.action.rawValue)-\(index)"
            guard let op = operations.first(where: { $0.name == name || $0.name == name + ".1" }) else { continue }
            labels[index] = "\(op.name) (\(step.strategy))"
            guard op.succeeded else { continue }
            var values = ["seconds": op.end - op.start]
            if let kib = op.details["peakRSSKiB"].flatMap(Double.init) { values["peak_memory"] = kib * 1024 }
            if let bytes = op.details["bytesLoaded"].flatMap(Double.init) { values["bytes_loaded"] = bytes }
            measured[index] = values
        }
        let bounds = scenario.expectMetrics.map { MetricsCheck.Bound(metric: $0.metric, step: $0.step, to: $0.to, min: $0.min, max: $0.max) }
        record(MetricsCheck.verdicts(bounds, measured: measured, labels: labels))
    }
}
