import Foundation

/// `bench.html`: one self-contained page (inline CSS and SVG, no scripts, no external URLs): the verdict, a bar
/// per strategy for time and for peak memory, each strategy's memory over its run (`BenchCharts`), and with
/// several store sizes a chart of peak memory and one of time against store size, a line per strategy, on log-log
/// axes so a flat strategy and a linear one are told apart at a glance (a line of slope 1 is memory that follows
/// the store).
public enum BenchHTML {
    public static let palette = ["#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#8c564b", "#e377c2", "#17becf", "#7f7f7f"]

    public static func page(_ report: BenchReport) -> String {
        let subjects = orderedSubjects(report)
        let several = report.configuration.sizes.count > 1
        // A line against store size needs two sizes at least: one point per strategy says nothing.
        let memory = several ? chart(title: "Peak memory (RSS) vs store size", yLabel: "peak RSS", subjects: subjects, report: report,
                                     value: { $0.peakRSSBytes.median }, format: { ByteCount.format($0) }) : ""
        let time = several ? chart(title: "Time vs store size", yLabel: "wall time (s)", subjects: subjects, report: report,
                                   value: { $0.wallSeconds.median }, format: { formatSeconds($0) }) : ""
        let timeBars = BenchCharts.bars(title: "Wall time (median)", report: report, subjects: subjects,
                                        value: { $0.wallSeconds.median }, format: { formatSeconds($0) })
        let memoryBars = BenchCharts.bars(title: "Peak memory (median RSS)", report: report, subjects: subjects,
                                          value: { $0.peakRSSBytes.median }, format: { ByteCount.format($0) })
        let overTime = BenchCharts.memoryOverTime(report: report, subjects: subjects) ?? ""
        let verdict = BenchVerdict.lines(report).map { "<p class=\"verdict\">\(escape($0))</p>" }.joined(separator: "\n")
        let stores = BenchTable.storeLines(report).map { "<li>\(escape($0))</li>" }.joined(separator: "\n")
        let growthSection = several ? """
            <h2>Memory growth</h2>
            <p>Least-squares fit of median peak RSS against store size. <em>flat</em>: memory grows by less than \
            \(Int(GrowthFit.flatLimit * 100))% of the store's growth; <em>linear</em>: it follows the store.</p>
            <table><tr>\(BenchTable.growthHeader.map { "<th>\(escape($0))</th>" }.joined())</tr>
            \(BenchTable.growthRows(report).map { "<tr>" + $0.map { "<td>\(escape($0))</td>" }.joined() + "</tr>" }.joined(separator: "\n"))
            </table>
            """ : "<p>\(escape(BenchTable.oneSize))</p>"
        let rows = BenchTable.rows(report).map { "<tr>" + $0.map { "<td>\(escape($0))</td>" }.joined() + "</tr>" }.joined(separator: "\n")
        let configuration = report.configuration
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>lifeboat bench \(escape(report.id))</title>
        <style>
        body { font-family: system-ui, sans-serif; margin: 2em; color: #222; }
        table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
        td, th { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
        th { background: #f3f3f3; }
        .charts { display: flex; flex-wrap: wrap; gap: 2em; }
        svg text { font-family: system-ui, sans-serif; }
        .verdict { font-weight: bold; font-size: 1.1em; }
        </style></head><body>
        <h1>lifeboat bench \(escape(report.id))</h1>
        <p>Schema <code>\(escape(report.schema))</code>, \(escape(report.createdAt)). \(report.host.cpus) CPUs, \
        \(ByteCount.format(report.host.memoryBytes)) RAM, Linux \(escape(report.host.kernel)), \(escape(report.host.buildConfiguration)) build;
        volume \(escape(configuration.volume)); \(configuration.rounds) round(s) per point, each a fresh child process (medians plotted).
        \(escape(BenchTable.storeOrigin(report)))</p>
        \(verdict)
        <ul>
        \(stores)
        </ul>
        <div class="charts">
        \(timeBars)
        \(memoryBars)
        \(overTime)
        \(memory)
        \(time)
        </div>
        \(growthSection)
        <h2>Measurements</h2>
        <table><tr>\(BenchTable.header.map { "<th>\(escape($0))</th>" }.joined())</tr>
        \(rows)
        </table>
        </body></html>

        """
    }

    static func orderedSubjects(_ report: BenchReport) -> [String] {
        var subjects: [String] = []
        for result in report.results where !subjects.contains(result.strategy) { subjects.append(result.strategy) }
        return subjects
    }

    /// One SVG line chart on log-log axes, a polyline and markers per subject, with axis labels and a legend.
    static func chart(title: String, yLabel: String, subjects: [String], report: BenchReport,
                      value: (BenchReport.Result) -> Double, format: (Double) -> String) -> String {
        let width = 560.0, height = 400.0
        let left = 80.0, right = 150.0, top = 36.0, bottom = 56.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let points = report.results.map { (Double($0.storeBytes), max(value($0), 1e-6)) }
        let xs = LogAxis(values: points.map(\.0)), ys = LogAxis(values: points.map(\.1))
        func x(_ v: Double) -> Double { left + xs.position(v) * plotWidth }
        func y(_ v: Double) -> Double { top + (1 - ys.position(v)) * plotHeight }
        var svg: [String] = []
        svg.append(##"<svg width="\##(Int(width))" height="\##(Int(height))" viewBox="0 0 \##(Int(width)) \##(Int(height))" role="img" aria-label="\##(escape(title))">"##)
        svg.append(##"<text x="\##(left)" y="20" font-size="15" font-weight="bold">\##(escape(title))</text>"##)
        svg.append(##"<rect x="\##(left)" y="\##(top)" width="\##(plotWidth)" height="\##(plotHeight)" fill="none" stroke="#888"/>"##)
        for tick in xs.ticks() {
            let px = x(tick)
            svg.append(##"<line x1="\##(px)" y1="\##(top)" x2="\##(px)" y2="\##(top + plotHeight)" stroke="#eee"/>"##)
            svg.append(##"<text x="\##(px)" y="\##(top + plotHeight + 16)" font-size="11" text-anchor="middle">\##(escape(tickLabel(ByteCount.format(tick))))</text>"##)
        }
        for tick in ys.ticks() {
            let py = y(tick)
            svg.append(##"<line x1="\##(left)" y1="\##(py)" x2="\##(left + plotWidth)" y2="\##(py)" stroke="#eee"/>"##)
            svg.append(##"<text x="\##(left - 6)" y="\##(py + 4)" font-size="11" text-anchor="end">\##(escape(tickLabel(format(tick))))</text>"##)
        }
        svg.append(##"<text x="\##(left + plotWidth / 2)" y="\##(height - 14)" font-size="12" text-anchor="middle">store size (.sqlite + support folder, log scale)</text>"##)
        svg.append(##"<text transform="translate(16 \##(top + plotHeight / 2)) rotate(-90)" font-size="12" text-anchor="middle">\##(escape(yLabel)) (log scale)</text>"##)
        for (index, subject) in subjects.enumerated() {
            let color = palette[index % palette.count]
            let series = report.results.filter { $0.strategy == subject }.sorted { $0.storeBytes < $1.storeBytes }
            let coordinates = series.map { String(format: "%.1f,%.1f", x(Double($0.storeBytes)), y(max(value($0), 1e-6))) }
            let dash = subject == BenchReport.checkerName ? ##" stroke-dasharray="5 3""## : ""
            svg.append(##"<polyline fill="none" stroke="\##(color)" stroke-width="2"\##(dash) points="\##(coordinates.joined(separator: " "))"/>"##)
            for result in series {
                svg.append(##"<circle cx="\##(String(format: "%.1f", x(Double(result.storeBytes))))" cy="\##(String(format: "%.1f", y(max(value(result), 1e-6))))" r="3.5" fill="\##(color)"><title>\##(escape("\(subject) \(ByteCount.label(result.targetBytes)): \(format(value(result)))"))</title></circle>"##)
            }
            let ly = top + 10 + Double(index) * 20
            svg.append(##"<line x1="\##(left + plotWidth + 14)" y1="\##(ly)" x2="\##(left + plotWidth + 36)" y2="\##(ly)" stroke="\##(color)" stroke-width="2"\##(dash)/>"##)
            svg.append(##"<text x="\##(left + plotWidth + 42)" y="\##(ly + 4)" font-size="12">\##(escape(subject))</text>"##)
        }
        svg.append("</svg>")
        // Coordinates to one decimal: the page stays small and readable.
        return svg.joined(separator: "\n").replacingOccurrences(of: #"(\d+\.\d)\d+"#, with: "$1", options: .regularExpression)
    }

    /// "100.0MB" reads as "100MB" on an axis; "1.05GB" stays.
    static func tickLabel(_ text: String) -> String {
        text.replacingOccurrences(of: #"\.0+(?=[A-Za-z])"#, with: "", options: .regularExpression)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds >= 10 ? String(format: "%.0f s", seconds) : seconds >= 1 ? String(format: "%.1f s", seconds) : String(format: "%.2g s", seconds)
    }

    static func escape(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}

/// A base-10 log axis over positive values, padded so single points sit inside, with 1-2-5 ticks.
struct LogAxis {
    var low: Double
    var high: Double

    init(values: [Double]) {
        let positive = values.filter { $0 > 0 }
        var low = log10(positive.min() ?? 1), high = log10(positive.max() ?? 10)
        if high - low < 0.3 {
            low -= 0.3
            high += 0.3
        }
        let pad = (high - low) * 0.08
        self.low = low - pad
        self.high = high + pad
    }

    func position(_ value: Double) -> Double { (log10(max(value, 1e-12)) - low) / (high - low) }

    func ticks() -> [Double] {
        var ticks: [Double] = []
        let multipliers: [Double] = high - low > 2.5 ? [1] : high - low > 1.2 ? [1, 3] : [1, 2, 5]
        for exponent in Int(floor(low))...Int(ceil(high)) {
            for multiplier in multipliers {
                let tick = multiplier * pow(10, Double(exponent))
                let position = log10(tick)
                if position >= low, position <= high { ticks.append(tick) }
            }
        }
        return ticks
    }
}
