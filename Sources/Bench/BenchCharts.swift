import Foundation
import Reporting

/// The bench page's pictures that answer "which strategy for this store": a horizontal bar per strategy (and
/// the checker) for one measure at each store size, and each strategy's resident set over its run, sampled from
/// /proc while the child ran (migrate climbs with the objects it loads; replace stays flat). Drawn with
/// Reporting's `SVGChart`, linear axes from zero, so bar lengths compare honestly.
enum BenchCharts {
    /// One bar per (size, subject), grouped by size, its value written at its end.
    static func bars(title: String, report: BenchReport, subjects: [String], value: (BenchReport.Result) -> Double,
                     format: (Double) -> String) -> String {
        typealias C = SVGChart
        let rows = report.configuration.sizes.flatMap { size in
            subjects.compactMap { subject in report.results.first { $0.targetBytes == size && $0.strategy == subject } }
        }
        let width = 620.0, left = 170.0, right = 90.0, top = 34.0, rowHeight = 22.0
        let height = top + Double(rows.count) * rowHeight + 16
        let largest = max(rows.map(value).max() ?? 1, 1e-9)
        let scale = (width - left - right) / largest
        var svg = C.open(width: width, height: height, label: title) + C.title(title, x: 10)
        let sizeLabel = { (result: BenchReport.Result) -> String in
            report.configuration.userStore != nil ? "" : ByteCount.label(result.targetBytes) + " "
        }
        for (index, result) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let color = C.Color.series(subjects.firstIndex(of: result.strategy) ?? 0)
            svg += C.text(sizeLabel(result) + result.strategy, x: left - 8, y: y + 15, size: 12, anchor: .end)
            svg += C.bar([C.Segment(length: value(result) * scale, color: color, title: "\(result.strategy): \(format(value(result)))")],
                         left: left, top: y + 3, height: rowHeight - 6, after: format(value(result)), afterSize: 12)
        }
        return svg + C.close
    }

    /// Resident set against seconds since start, one line per strategy: the round with the median wall time
    /// of the largest store. Nil when no round carries samples (reports written before sampling).
    static func memoryOverTime(report: BenchReport, subjects: [String]) -> String? {
        typealias C = SVGChart
        guard let size = report.configuration.sizes.max() else { return nil }
        let series: [(String, [MemorySample])] = subjects.compactMap { subject in
            guard let result = report.results.first(where: { $0.targetBytes == size && $0.strategy == subject }) else { return nil }
            let rounds = result.rounds.filter { !($0.memorySamples ?? []).isEmpty }.sorted { $0.wallSeconds < $1.wallSeconds }
            guard !rounds.isEmpty else { return nil }
            return (subject, rounds[rounds.count / 2].memorySamples ?? [])
        }
        guard !series.isEmpty else { return nil }
        let width = 620.0, height = 360.0, left = 80.0, right = 130.0, top = 36.0, bottom = 50.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let maxT = max(series.flatMap { $0.1.map(\.t) }.max() ?? 1, 1e-3)
        let maxRSS = max(Double(series.flatMap { $0.1.map(\.rssBytes) }.max() ?? 1), 1)
        func x(_ t: Double) -> Double { left + t / maxT * plotWidth }
        func y(_ bytes: Double) -> Double { top + (1 - bytes / maxRSS) * plotHeight }
        let title = "Memory over time" + (report.configuration.userStore != nil ? "" : " (\(ByteCount.label(size)) store)")
        var svg = C.open(width: width, height: height, label: title) + C.title(title, x: left)
        svg += C.frame(left: left, top: top, width: plotWidth, height: plotHeight,
                       xName: "seconds since the child started (the round with the median time)", xNameY: height - 12, yName: "resident set (VmRSS)")
        for step in 0...4 {
            let fraction = Double(step) / 4
            svg += C.text(ByteCount.format(maxRSS * fraction), x: left - 6, y: y(maxRSS * fraction) + 4, size: 11, anchor: .end)
            svg += C.text(BenchHTML.formatSeconds(maxT * fraction), x: x(maxT * fraction), y: top + plotHeight + 16, size: 11, anchor: .middle)
        }
        var legend: [(C.Swatch, String)] = []
        for (index, (subject, samples)) in series.enumerated() {
            let color = C.Color.series(subjects.firstIndex(of: subject) ?? index)
            svg += C.polyline(samples.map { (x($0.t), y(Double($0.rssBytes))) }, stroke: color)
            legend.append((.line(color), subject))
        }
        svg += C.legendColumn(legend, x: left + plotWidth + 14, y: top + 10)
        return svg + C.close
    }
}
