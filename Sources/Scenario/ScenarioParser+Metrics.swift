import Foundation
import Yams

extension Scenario {
    /// One expectation of `expect_metrics:` (docs/scenario-file.md): a bound on a measurement of one step
    /// (`step` alone), or on the ratio of one step's measurement to another's (`step` / `to`). Judged as
    /// `metrics-within-bounds` at the end of the run (Sources/Checks/Invariants+Metrics.swift).
    public struct MetricExpectation: Sendable, Equatable, Codable {
        /// `peak_memory` (bytes, the step's process's peak resident set), `seconds` (the step's wall time),
        /// `bytes_loaded` (bytes of values a migrate held in memory), `stall_seconds` (the writers' longest commit
        /// while the step ran: "this backup never blocks the app for more than 1 s") or `commit_p99_seconds`.
        public var metric: String
        public var step: Int
        public var to: Int?
        public var min: Double?
        public var max: Double?

        public init(metric: String, step: Int, to: Int? = nil, min: Double? = nil, max: Double? = nil) {
            (self.metric, self.step, self.to, self.min, self.max) = (metric, step, to, min, max)
        }

        public static let metrics = ["peak_memory", "seconds", "bytes_loaded", "stall_seconds", "commit_p99_seconds"]
        /// Metrics in bytes, written as sizes (`64MiB`).
        public var isSize: Bool { !metric.hasSuffix("seconds") }
    }
}

extension ScenarioParser {
    /// The entry kinds whose steps have measurements.
    static let measuredSteps = ["backup", "restore", "relocate"]

    /// `expect_metrics:`, a list; every mistake at its `file:line:column`.
    static func metricExpectations(_ list: [Node], file: String, schedule: [Scenario.Step]) throws -> [Scenario.MetricExpectation] {
        var result: [Scenario.MetricExpectation] = []
        for (index, node) in list.enumerated() {
            var r = try NodeReader(node, file: file, context: "expect_metrics[\(index)]")
            func stepIndex(_ key: String) throws -> Int? {
                guard let step = try r.int(key, range: 0...10_000) else { return nil }
                guard step < schedule.count, measuredSteps.contains(schedule[step].action.rawValue) else {
                    throw r.error(r.node(key), "expect_metrics[\(index)].\(key) must name a backup, restore or relocate entry of `schedule` (0...\(max(0, schedule.count - 1))), not \(step)")
                }
                return step
            }
            func bounds(_ r: inout NodeReader, size: Bool, range: ClosedRange<Double>, context: String) throws -> (Double?, Double?) {
                let read: (inout NodeReader, String) throws -> Double? = { r, key in
                    size ? try r.size(key, range: 0...(1 << 50)).map(Double.init) : try r.double(key, range: range)
                }
                let low = try read(&r, "min")
                let high = try read(&r, "max")
                guard low != nil || high != nil else { throw r.error(nil, "\(context) needs `min:`, `max:` or both") }
                if let low, let high, low > high { throw r.error(r.node("max"), "\(context).max must not be below its min") }
                return (low, high)
            }
            if let ratio = try r.choice("ratio", Scenario.MetricExpectation.metrics) {
                guard let of = try stepIndex("of"), let to = try stepIndex("to") else {
                    throw r.error(node, "expect_metrics[\(index)]: a ratio needs `of: STEP` and `to: STEP` (schedule indexes)")
                }
                if of == to { throw r.error(r.node("to"), "expect_metrics[\(index)]: a ratio of a step to itself is always 1") }
                let (low, high) = try bounds(&r, size: false, range: 0...1_000_000, context: "expect_metrics[\(index)]")
                result.append(.init(metric: ratio, step: of, to: to, min: low, max: high))
            } else {
                guard let step = try stepIndex("step") else {
                    throw r.error(node, "expect_metrics[\(index)] needs `step: INDEX` with bounds (\(Scenario.MetricExpectation.metrics.joined(separator: ", "))), or `ratio: METRIC` with `of:` and `to:`")
                }
                var any = false
                for metric in Scenario.MetricExpectation.metrics {
                    guard var inner = try r.mapping(metric) else { continue }
                    let size = !metric.hasSuffix("seconds")
                    let (low, high) = try bounds(&inner, size: size, range: 0...86_400, context: "expect_metrics[\(index)].\(metric)")
                    try inner.finish()
                    result.append(.init(metric: metric, step: step, min: low, max: high))
                    any = true
                }
                try r.finish()
                if !any { throw r.error(node, "expect_metrics[\(index)] needs at least one of \(Scenario.MetricExpectation.metrics.joined(separator: ", ")), each {min, max}") }
            }
            try r.finish()
        }
        return result
    }
}

extension ScenarioYAML {
    /// The lines of `expect_metrics:`, one expectation an item.
    static func metricLines(_ expectations: [Scenario.MetricExpectation]) -> [String] {
        guard !expectations.isEmpty else { return [] }
        func number(_ value: Double, size: Bool) -> String { size ? String(Int(value)) : String(value) }
        return ["expect_metrics:"] + expectations.map { e in
            let bounds = [e.min.map { "min: \(number($0, size: e.to == nil && e.isSize))" }, e.max.map { "max: \(number($0, size: e.to == nil && e.isSize))" }]
                .compactMap { $0 }.joined(separator: ", ")
            if let to = e.to { return "  - {ratio: \(e.metric), of: \(e.step), to: \(to), \(bounds)}" }
            return "  - {step: \(e.step), \(e.metric): {\(bounds)}}"
        }
    }
}
