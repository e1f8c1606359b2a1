import Checks
import Foundation

extension HTMLReport {
    /// The run over time, as one SVG (drawn with `SVGChart`): a lane per writer (a tick per commit), a lane per
    /// operation (a bar), on a FaultFS run the `-wal`'s length (an area: a checkpoint that resets the log shows as
    /// a drop) and a lane of checkpoints and other processes' fsyncs; faults and the crash as dashed red lines,
    /// and the operation the first finding's cause names as a red diamond at its time; a legend under the time
    /// axis.
    public static func timeline(_ result: RunResult) -> String {
        typealias C = SVGChart
        let n = C.number
        let activity = result.activity
        let wal = activity?.walBytes ?? []
        let marks = (activity?.checkpoints ?? []) + (activity?.fsyncs ?? [])
        var lanes = result.writers.map { "writer-\($0.writer)" } + result.operations.map(\.name)
        if !marks.isEmpty { lanes.append("syncs") }
        let causes = causeMarks(result)
        let end = max(0.001, ([result.seconds] + result.operations.map(\.end) + result.events.map(\.t) + wal.map(\.t) + causes.map(\.t)).max() ?? 1)
        let left = 110.0, width = 960.0, laneHeight = 22.0, top = 10.0, walHeight = wal.isEmpty ? 0.0 : 48.0
        let bottom = top + Double(lanes.count) * laneHeight + walHeight
        let height = bottom + 62
        func x(_ t: Double) -> Double { left + (width - left - 10) * min(max(t, 0), end) / end }
        func y(lane index: Int) -> Double { top + Double(index) * laneHeight }
        var svg = C.open(width: width, height: height, label: "timeline")
        for (index, lane) in lanes.enumerated() {
            svg += C.lane(lane, top: y(lane: index), height: laneHeight, left: left, right: width - 10)
        }
        for (index, writer) in result.writers.enumerated() {
            let path = writer.commitTimes.map { "M\(n(x($0))) \(n(y(lane: index) + 5))v12" }.joined()
            if !path.isEmpty { svg += C.path(path, stroke: C.Color.commit, width: 1) }
        }
        for (index, op) in result.operations.enumerated() {
            let color = op.succeeded ? (op.action == "backup" ? C.Color.good : C.Color.amber) : C.Color.bad
            svg += C.rect(x: x(op.start), y: y(lane: result.writers.count + index) + 4, width: max(2, x(op.end) - x(op.start)), height: 14, fill: color,
                          title: "\(op.name) \(op.strategy) \(String(format: "%.3f", op.start))-\(String(format: "%.3f", op.end)) s")
        }
        if !marks.isEmpty {
            let lane = y(lane: lanes.count - 1)
            for mark in marks {
                let title = "\(String(format: "%.3f", mark.t)) s: \(mark.what)\(mark.actor.map { " by " + $0 } ?? "")"
                svg += mark.what == "checkpoint" || mark.what == "writes into the database"
                    ? C.rect(x: x(mark.t) - 3, y: lane + 5, width: 6, height: 12, fill: C.Color.checkpoint, title: title)
                    : C.circle(cx: x(mark.t), cy: lane + 11, r: 3.5, fill: C.Color.good, title: title)
            }
        }
        if !wal.isEmpty {
            let base = top + Double(lanes.count) * laneHeight + walHeight - 6
            let peak = Double(max(1, wal.map(\.bytes).max() ?? 1))
            func walY(_ bytes: Int64) -> Double { base - (walHeight - 12) * Double(bytes) / peak }
            var path = "M\(n(x(wal[0].t))) \(n(base))"
            var previous: Int64 = 0
            for sample in wal {
                path += "L\(n(x(sample.t))) \(n(walY(previous)))L\(n(x(sample.t))) \(n(walY(sample.bytes)))"
                previous = sample.bytes
            }
            path += "L\(n(x(end))) \(n(walY(previous)))L\(n(x(end))) \(n(base))Z"
            svg += C.text("-wal (max \(bytes(Int64(peak))))", x: 4, y: base - walHeight / 2 + 8)
            svg += C.path(path, fill: C.Color.walFill, stroke: C.Color.commit, width: 0.8, title: "the -wal's length over time (largest \(bytes(Int64(peak))))")
        }
        for event in result.events where event.kind == .fault || event.kind == .crash {
            svg += C.line(x1: x(event.t), y1: top, x2: x(event.t), y2: bottom, stroke: C.Color.bad, dash: "4 2", title: event.detail)
            svg += C.text(event.kind.rawValue, x: x(event.t) + 3, y: bottom + 12, fill: C.Color.bad)
        }
        for cause in causes {
            svg += C.diamond(x: x(cause.t), y: top + 4, fill: C.Color.bad, title: "cause: \(cause.what)")
        }
        svg += C.bottomAxis(end: end, y: bottom, x: x, labelGap: 28) { "\(n($0)) s" }
        svg += C.legendRow(legend(wal: !wal.isEmpty, marks: !marks.isEmpty, causes: !causes.isEmpty), x: 14, y: bottom + 48)
        return svg + C.close
    }

    /// The legend: what each colour and shape stands for, only those the timeline shows.
    static func legend(wal: Bool, marks: Bool, causes: Bool) -> [(SVGChart.Swatch, String)] {
        typealias Color = SVGChart.Color
        var items: [(SVGChart.Swatch, String)] = [
            (.tick(Color.commit), "commit"),
            (.box(Color.good), "backup"),
            (.box(Color.amber), "restore or other step"),
            (.box(Color.bad), "failed step"),
            (.tick(Color.bad, dash: "3 2"), "fault or crash"),
        ]
        if marks {
            items.append((.narrowBox(Color.checkpoint), "checkpoint"))
            items.append((.dot(Color.good), "fsync by a program"))
        }
        if wal { items.append((.box(Color.walFill, stroke: Color.commit), "-wal length")) }
        if causes { items.append((.diamond(Color.bad), "the cause's operation")) }
        return items
    }

    /// The operations the findings' causes name with their time ("create /backups/0-1/Library.sqlite at
    /// 1.171 s by backup-0 (cp) was never ..."): the first clause of each finding's cause.
    static func causeMarks(_ result: RunResult) -> [(t: Double, what: String)] {
        guard let expression = try? NSRegularExpression(pattern: #" at ([0-9]+(?:\.[0-9]+)?) s\b"#) else { return [] }
        return Finding.of(result.verdicts).compactMap { finding in
            guard let cause = finding.cause,
                  let match = expression.firstMatch(in: cause, range: NSRange(cause.startIndex..., in: cause)),
                  let range = Range(match.range(at: 1), in: cause), let t = Double(cause[range]) else { return nil }
            return (t, "\(finding.invariant): \(cause)")
        }
    }

    /// "1.2 MiB", "512 KiB", "800 B".
    static func bytes(_ count: Int64) -> String {
        let value = Double(count)
        if value >= 1_048_576 { return String(format: "%.1f MiB", value / 1_048_576) }
        if value >= 1024 { return String(format: "%.0f KiB", value / 1024) }
        return "\(count) B"
    }
}
