import Foundation

/// The bench page's pictures that answer "which strategy for this store": a horizontal bar per strategy (and
/// the checker) for one measure at each store size, and each strategy's resident set over its run, sampled from
/// /proc while the child ran (migrate climbs with the objects it loads; replace stays flat). Inline SVG, linear
/// axes from zero, so bar lengths compare honestly.
enum BenchCharts {
    /// One bar per (size, subject), grouped by size, its value written at its end.
    static func bars(title: String, report: BenchReport, subjects: [String], value: (BenchReport.Result) -> Double,
                     format: (Double) -> String) -> String {
        let rows = report.configuration.sizes.flatMap { size in
            subjects.compactMap { subject in report.results.first { $0.targetBytes == size && $0.strategy == subject } }
        }
        let width = 620.0, left = 170.0, right = 90.0, top = 34.0, rowHeight = 22.0
        let height = top + Double(rows.count) * rowHeight + 16
        let largest = max(rows.map(value).max() ?? 1, 1e-9)
        let scale = (width - left - right) / largest
        var svg = [##"<svg width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="\##(BenchHTML.escape(title))">"##,
                   ##"<text x="10" y="20" font-size="15" font-weight="bold">\##(BenchHTML.escape(title))</text>"##]
        let sizeLabel = { (result: BenchReport.Result) -> String in
            report.configuration.userStore != nil ? "" : ByteCount.label(result.targetBytes) + " "
        }
        for (index, result) in rows.enumerated() {
            let y = top + Double(index) * rowHeight
            let color = BenchHTML.palette[(subjects.firstIndex(of: result.strategy) ?? 0) % BenchHTML.palette.count]
            let length = max(1, value(result) * scale)
            svg.append(##"<text x="\##(left - 8)" y="\##(y + 15)" font-size="12" text-anchor="end">\##(BenchHTML.escape(sizeLabel(result) + result.strategy))</text>"##)
            svg.append(##"<rect x="\##(left)" y="\##(y + 3)" width="\##(String(format: "%.1f", length))" height="\##(rowHeight - 6)" fill="\##(color)"><title>\##(BenchHTML.escape("\(result.strategy): \(format(value(result)))"))</title></rect>"##)
            svg.append(##"<text x="\##(String(format: "%.1f", left + length + 6))" y="\##(y + 15)" font-size="12">\##(BenchHTML.escape(format(value(result))))</text>"##)
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }

    /// Resident set against seconds since start, one line per strategy: the round with the median wall time
    /// of the largest store. Nil when no round carries samples (reports written before sampling).
    static func memoryOverTime(report: BenchReport, subjects: [String]) -> String? {
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
        var svg = [##"<svg width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="\##(title)">"##,
                   ##"<text x="\##(left)" y="20" font-size="15" font-weight="bold">\##(BenchHTML.escape(title))</text>"##,
                   ##"<rect x="\##(left)" y="\##(top)" width="\##(plotWidth)" height="\##(plotHeight)" fill="none" stroke="#888"/>"##]
        for step in 0...4 {
            let fraction = Double(step) / 4
            svg.append(##"<text x="\##(left - 6)" y="\##(String(format: "%.1f", y(maxRSS * fraction) + 4))" font-size="11" text-anchor="end">\##(BenchHTML.escape(ByteCount.format(maxRSS * fraction)))</text>"##)
            svg.append(##"<text x="\##(String(format: "%.1f", x(maxT * fraction)))" y="\##(top + plotHeight + 16)" font-size="11" text-anchor="middle">\##(BenchHTML.escape(BenchHTML.formatSeconds(maxT * fraction)))</text>"##)
        }
        svg.append(##"<text x="\##(left + plotWidth / 2)" y="\##(height - 12)" font-size="12" text-anchor="middle">seconds since the child started (the round with the median time)</text>"##)
        svg.append(##"<text transform="translate(16 \##(top + plotHeight / 2)) rotate(-90)" font-size="12" text-anchor="middle">resident set (VmRSS)</text>"##)
        for (index, (subject, samples)) in series.enumerated() {
            let color = BenchHTML.palette[(subjects.firstIndex(of: subject) ?? index) % BenchHTML.palette.count]
            let points = samples.map { String(format: "%.1f,%.1f", x($0.t), y(Double($0.rssBytes))) }.joined(separator: " ")
            svg.append(##"<polyline fill="none" stroke="\##(color)" stroke-width="2" points="\##(points)"/>"##)
            let ly = top + 10 + Double(index) * 20
            svg.append(##"<line x1="\##(left + plotWidth + 14)" y1="\##(ly)" x2="\##(left + plotWidth + 36)" y2="\##(ly)" stroke="\##(color)" stroke-width="2"/>"##)
            svg.append(##"<text x="\##(left + plotWidth + 42)" y="\##(ly + 4)" font-size="12">\##(BenchHTML.escape(subject))</text>"##)
        }
        svg.append("</svg>")
        return svg.joined(separator: "\n")
    }
}
