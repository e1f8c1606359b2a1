import Foundation

/// `metrics-within-bounds`: the bounds a scenario states on its steps' measurements (`expect_metrics:`), so that
/// "replace's peak memory stays under 64 MiB" or "migrate needs more than 4x replace's memory" (seed 001's reader
/// comment: "Core Data's memory usage with this approach might ... get very high for large databases") is a
/// check with an exit code rather than a number read from report.json. A pure function of the measurements.
public enum MetricsCheck {
    /// One bound: `metric` of step `step` (or its ratio to step `to`) between `min` and `max`.
    public struct Bound: Sendable, Equatable, Codable {
        public var metric: String
        public var step: Int
        public var to: Int?
        public var min: Double?
        public var max: Double?

        public init(metric: String, step: Int, to: Int? = nil, min: Double? = nil, max: Double? = nil) {
            (self.metric, self.step, self.to, self.min, self.max) = (metric, step, to, min, max)
        }
    }

    /// `measured[step][metric]`: what each step measured (nil when it measured nothing, or did not run);
    /// `labels[step]`: how to name it (`backup-1 (migrate)`).
    public static func verdicts(_ bounds: [Bound], measured: [Int: [String: Double]], labels: [Int: String]) -> [Verdict] {
        let name = "metrics-within-bounds"
        return bounds.map { bound in
            let label = labels[bound.step] ?? "schedule[\(bound.step)]"
            guard let value = measured[bound.step]?[bound.metric] else {
                return Verdict(name, .violated, "\(label): no \(bound.metric) measured", evidence: ["\(label) did not run, failed, or does not measure \(bound.metric)"])
            }
            var what = "\(bound.metric) of \(label)"
            var actual = value
            if let to = bound.to {
                let other = labels[to] ?? "schedule[\(to)]"
                guard let base = measured[to]?[bound.metric], base > 0 else {
                    return Verdict(name, .violated, "\(other): no \(bound.metric) measured to compare \(label) with")
                }
                actual = value / base
                what = "\(bound.metric) of \(label) / \(other) (\(format(value, bound.metric)) / \(format(base, bound.metric)))"
            }
            let shown = bound.to == nil ? format(actual, bound.metric) : String(format: "%.2fx", actual)
            let limits = [bound.min.map { ">= \(bound.to == nil ? format($0, bound.metric) : String(format: "%gx", $0))" },
                          bound.max.map { "<= \(bound.to == nil ? format($0, bound.metric) : String(format: "%gx", $0))" }]
                .compactMap { $0 }.joined(separator: " and ")
            if let low = bound.min, actual < low { return Verdict(name, .violated, "\(what) is \(shown), expected \(limits)", evidence: ["\(what) is \(shown), expected \(limits)"]) }
            if let high = bound.max, actual > high { return Verdict(name, .violated, "\(what) is \(shown), expected \(limits)", evidence: ["\(what) is \(shown), expected \(limits)"]) }
            return Verdict(name, .held, "\(what) is \(shown) (\(limits))")
        }
    }

    static func format(_ value: Double, _ metric: String) -> String {
        if metric.hasSuffix("seconds") { return String(format: "%.2f s", value) }
        return String(format: "%.1f MiB", value / 1_048_576)
    }
}
