import Checks
import Foundation
import Scenario

extension RunEnd {
    /// For `metrics-within-bounds` (the scenario's `expect_metrics:`): what each step measured (its first run):
    /// `peak_memory` (the step's process's peak RSS), `seconds` (wall time), `bytes_loaded` (a migrate's),
    /// `stall_seconds` and `commit_p99_seconds` (the writers' longest and 99th-percentile commit while it ran).
    static func measureStepMetrics(_ record: inout RunRecord, scenario: Scenario) {
        guard !scenario.expectMetrics.isEmpty else { return }
        var measured: [Int: [String: Double]] = [:]
        var labels: [Int: String] = [:]
        for (index, step) in scenario.schedule.enumerated() {
            let name = "\(step.action.rawValue)-\(index)"
            guard let op = record.operations.first(where: { $0.name == name || $0.name == name + ".1" }) else { continue }
            labels[index] = "\(op.name) (\(step.strategy))"
            guard op.succeeded else { continue }
            var values = ["seconds": op.end - op.start]
            if let kib = op.details["peakRSSKiB"].flatMap(Double.init) { values["peak_memory"] = kib * 1024 }
            if let bytes = op.details["bytesLoaded"].flatMap(Double.init) { values["bytes_loaded"] = bytes }
            // The app's commits while the step ran (`CommitStalls`): none during it is no stall.
            if let stall = record.stalls.first(where: { $0.step == op.name }) {
                values["stall_seconds"] = stall.longest ?? 0
                values["commit_p99_seconds"] = stall.p99 ?? 0
            }
            measured[index] = values
        }
        record.stepMetrics.measured = measured
        record.stepMetrics.labels = labels
    }
}
