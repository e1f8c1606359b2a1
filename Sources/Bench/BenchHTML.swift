import Foundation
import Reporting

/// `bench.html`: one self-contained page (the one `PageStyle` sheet and `SVGChart` SVG inline, no scripts, no
/// external URLs): the verdict, a bar per strategy for time and for peak memory, each strategy's memory over its
/// run (`BenchCharts`), and with several store sizes a chart of peak memory and one of time against store size,
/// a line per strategy, on log-log axes so a flat strategy and a linear one are told apart at a glance (a line of
/// slope 1 is memory that follows the store).
public enum BenchHTML {
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
        let verdict = BenchVerdict.lines(report).map { "<p class=\"verdict\">\(h($0))</p>" }.joined(separator: "\n")
        let stores = BenchTable.storeLines(report).map { "<li>\(h($0))</li>" }.joined(separator: "\n")
        let growthSection = several ? """
            <h2>Memory growth</h2>
            <p>Least-squares fit of median peak RSS against store size. <em>flat</em>: memory grows by less than \
            \(Int(GrowthFit.flatLimit * 100))% of the store's growth; <em>linear</em>: it follows the store.</p>
            <table><tr>\(BenchTable.growthHeader.map { "<th>\(h($0))</th>" }.joined())</tr>
            \(BenchTable.growthRows(report).map { "<tr>" + $0.map { "<td>\(h($0))</td>" }.joined() + "</tr>" }.joined(separator: "\n"))
            </table>
            """ : "<p>\(h(BenchTable.oneSize))</p>"
        let rows = BenchTable.rows(report).map { "<tr>" + $0.map { "<td>\(h($0))</td>" }.joined() + "</tr>" }.joined(separator: "\n")
        let configuration = report.configuration
        // `wide`: the charts sit side by side as far as the window allows.
        return PageStyle.open(title: "lifeboat bench \(report.id)", bodyClass: "wide") + """
        <h1>lifeboat bench \(h(report.id))</h1>
        <p>Schema <code>\(h(report.schema))</code>, \(h(report.createdAt)). \(report.host.cpus) CPUs, \
        \(ByteCount.format(report.host.memoryBytes)) RAM, Linux \(h(report.host.kernel)), \(h(report.host.buildConfiguration)) build;
        volume \(h(configuration.volume)); \(configuration.rounds) round(s) per point, each a fresh child process (medians plotted).
        \(h(BenchTable.storeOrigin(report)))</p>
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
        <table><tr>\(BenchTable.header.map { "<th>\(h($0))</th>" }.joined())</tr>
        \(rows)
        </table>

        """ + PageStyle.close
    }

    static func orderedSubjects(_ report: BenchReport) -> [String] {
        var subjects: [String] = []
        for result in report.results where !subjects.contains(result.strategy) { subjects.append(result.strategy) }
        return subjects
    }

    /// One SVG line chart on log-log axes, a polyline and markers per subject, with axis labels and a legend.
    static func chart(title: String, yLabel: String, subjects: [String], report: BenchReport,
                      value: (BenchReport.Result) -> Double, format: (Double) -> String) -> String {
        typealias C = SVGChart
        let width = 560.0, height = 400.0
        let left = 80.0, right = 150.0, top = 36.0, bottom = 56.0
        let plotWidth = width - left - right, plotHeight = height - top - bottom
        let points = report.results.map { (Double($0.storeBytes), max(value($0), 1e-6)) }
        let xs = C.LogAxis(values: points.map(\.0)), ys = C.LogAxis(values: points.map(\.1))
        func x(_ v: Double) -> Double { left + xs.position(v) * plotWidth }
        func y(_ v: Double) -> Double { top + (1 - ys.position(v)) * plotHeight }
        var svg = C.open(width: width, height: height, label: title) + C.title(title, x: left)
        svg += C.frame(left: left, top: top, width: plotWidth, height: plotHeight,
                       xName: "store size (.sqlite + support folder, log scale)", xNameY: height - 14, yName: "\(yLabel) (log scale)")
        for tick in xs.ticks() {
            svg += C.line(x1: x(tick), y1: top, x2: x(tick), y2: top + plotHeight, stroke: C.Color.grid)
            svg += C.text(tickLabel(ByteCount.format(tick)), x: x(tick), y: top + plotHeight + 16, size: 11, anchor: .middle)
        }
        for tick in ys.ticks() {
            svg += C.line(x1: left, y1: y(tick), x2: left + plotWidth, y2: y(tick), stroke: C.Color.grid)
            svg += C.text(tickLabel(format(tick)), x: left - 6, y: y(tick) + 4, size: 11, anchor: .end)
        }
        var legend: [(C.Swatch, String)] = []
        for (index, subject) in subjects.enumerated() {
            let color = C.Color.series(index)
            let series = report.results.filter { $0.strategy == subject }.sorted { $0.storeBytes < $1.storeBytes }
            let dash = subject == BenchReport.checkerName ? "5 3" : nil
            svg += C.polyline(series.map { (x(Double($0.storeBytes)), y(max(value($0), 1e-6))) }, stroke: color, dash: dash)
            for result in series {
                svg += C.circle(cx: x(Double(result.storeBytes)), cy: y(max(value(result), 1e-6)), r: 3.5, fill: color,
                                title: "\(subject) \(ByteCount.label(result.targetBytes)): \(format(value(result)))")
            }
            legend.append((.line(color, dash: dash), subject))
        }
        svg += C.legendColumn(legend, x: left + plotWidth + 14, y: top + 10)
        return svg + C.close
    }

    /// "100.0MB" reads as "100MB" on an axis; "1.05GB" stays.
    static func tickLabel(_ text: String) -> String {
        text.replacingOccurrences(of: #"\.0+(?=[A-Za-z])"#, with: "", options: .regularExpression)
    }

    static func formatSeconds(_ seconds: Double) -> String {
        seconds >= 10 ? String(format: "%.0f s", seconds) : seconds >= 1 ? String(format: "%.1f s", seconds) : String(format: "%.2g s", seconds)
    }

    static func h(_ text: String) -> String { PageText.html(text) }
}
