import Checks
import Foundation

extension HTMLReport {
    /// The run over time, as one SVG: a lane per writer (a tick per commit), a lane per operation (a bar), on a
    /// FaultFS run the `-wal`'s length (an area: a checkpoint that resets the log shows as a drop) and a lane of
    /// checkpoints and other processes' fsyncs; faults and the crash as dashed red lines, and the operation the
    /// first finding's cause names as a red diamond at its time; a legend under the time axis.
    public static func timeline(_ result: RunResult) -> String {
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
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"timeline\">\n"
        for (index, lane) in lanes.enumerated() {
            svg += "<text x=\"4\" y=\"\(y(lane: index) + 15)\">\(h(lane))</text><line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y(lane: index) + 11)\" y2=\"\(y(lane: index) + 11)\" stroke=\"#eee\"/>\n"
        }
        for (index, writer) in result.writers.enumerated() {
            var path = ""
            for t in writer.commitTimes { path += "M\(fmt(x(t))) \(fmt(y(lane: index) + 5))v12" }
            if !path.isEmpty { svg += "<path d=\"\(path)\" stroke=\"#3367d6\" stroke-width=\"1\"/>\n" }
        }
        for (index, op) in result.operations.enumerated() {
            let lane = y(lane: result.writers.count + index)
            let color = op.succeeded ? (op.action == "backup" ? "#2e9e4f" : "#e08a00") : "#b00020"
            svg += "<rect x=\"\(fmt(x(op.start)))\" y=\"\(fmt(lane + 4))\" width=\"\(fmt(max(2, x(op.end) - x(op.start))))\" height=\"14\" fill=\"\(color)\"><title>\(h(op.name)) \(h(op.strategy)) \(String(format: "%.3f", op.start))-\(String(format: "%.3f", op.end)) s</title></rect>\n"
        }
        if !marks.isEmpty {
            let lane = y(lane: lanes.count - 1)
            for mark in marks {
                let checkpoint = mark.what == "checkpoint" || mark.what == "writes into the database"
                let shape = checkpoint
                    ? "<rect x=\"\(fmt(x(mark.t) - 3))\" y=\"\(fmt(lane + 5))\" width=\"6\" height=\"12\" fill=\"#7b3fb5\">"
                    : "<circle cx=\"\(fmt(x(mark.t)))\" cy=\"\(fmt(lane + 11))\" r=\"3.5\" fill=\"#2e9e4f\">"
                svg += shape + "<title>\(String(format: "%.3f", mark.t)) s: \(h(mark.what))\(mark.actor.map { " by " + h($0) } ?? "")</title>" + (checkpoint ? "</rect>\n" : "</circle>\n")
            }
        }
        if !wal.isEmpty {
            let base = top + Double(lanes.count) * laneHeight + walHeight - 6
            let peak = Double(max(1, wal.map(\.bytes).max() ?? 1))
            func walY(_ bytes: Int64) -> Double { base - (walHeight - 12) * Double(bytes) / peak }
            var path = "M\(fmt(x(wal[0].t))) \(fmt(base))"
            var previous: Int64 = 0
            for sample in wal {
                path += "L\(fmt(x(sample.t))) \(fmt(walY(previous)))L\(fmt(x(sample.t))) \(fmt(walY(sample.bytes)))"
                previous = sample.bytes
            }
            path += "L\(fmt(x(end))) \(fmt(walY(previous)))L\(fmt(x(end))) \(fmt(base))Z"
            svg += "<text x=\"4\" y=\"\(fmt(base - walHeight / 2 + 8))\">-wal (max \(h(bytes(Int64(peak)))))</text>\n"
            svg += "<path d=\"\(path)\" fill=\"#c9dbf7\" stroke=\"#3367d6\" stroke-width=\"0.8\"><title>the -wal's length over time (largest \(h(bytes(Int64(peak)))))</title></path>\n"
        }
        for event in result.events where event.kind == .fault || event.kind == .crash {
            svg += "<line x1=\"\(fmt(x(event.t)))\" x2=\"\(fmt(x(event.t)))\" y1=\"\(top)\" y2=\"\(bottom)\" stroke=\"#b00020\" stroke-dasharray=\"4 2\"><title>\(h(event.detail))</title></line>\n"
            svg += "<text x=\"\(fmt(x(event.t) + 3))\" y=\"\(fmt(bottom + 12))\" fill=\"#b00020\">\(h(event.kind.rawValue))</text>\n"
        }
        for cause in causes {
            let cx = x(cause.t), cy = top + 4
            svg += "<path d=\"M\(fmt(cx)) \(fmt(cy - 5))l5 5l-5 5l-5 -5Z\" fill=\"#b00020\"><title>cause: \(h(cause.what))</title></path>\n"
        }
        let step = niceStep(end)
        var tick = 0.0
        while tick <= end + 1e-9 {
            svg += "<line x1=\"\(fmt(x(tick)))\" x2=\"\(fmt(x(tick)))\" y1=\"\(bottom)\" y2=\"\(bottom + 4)\" stroke=\"#444\"/><text x=\"\(fmt(x(tick) - 6))\" y=\"\(bottom + 28)\">\(fmt(tick)) s</text>\n"
            tick += step
        }
        svg += legend(y: bottom + 48, wal: !wal.isEmpty, marks: !marks.isEmpty, causes: !causes.isEmpty)
        return svg + "</svg>"
    }

    /// The legend: what each colour and shape stands for, only those the timeline shows.
    static func legend(y: Double, wal: Bool, marks: Bool, causes: Bool) -> String {
        var items: [(String, String)] = [
            ("<path d=\"M0 -6v12\" stroke=\"#3367d6\"/>", "commit"),
            ("<rect x=\"-6\" y=\"-5\" width=\"12\" height=\"10\" fill=\"#2e9e4f\"/>", "backup"),
            ("<rect x=\"-6\" y=\"-5\" width=\"12\" height=\"10\" fill=\"#e08a00\"/>", "restore or other step"),
            ("<rect x=\"-6\" y=\"-5\" width=\"12\" height=\"10\" fill=\"#b00020\"/>", "failed step"),
            ("<path d=\"M0 -6v12\" stroke=\"#b00020\" stroke-dasharray=\"3 2\"/>", "fault or crash"),
        ]
        if marks {
            items.append(("<rect x=\"-3\" y=\"-6\" width=\"6\" height=\"12\" fill=\"#7b3fb5\"/>", "checkpoint"))
            items.append(("<circle r=\"3.5\" fill=\"#2e9e4f\"/>", "fsync by a program"))
        }
        if wal { items.append(("<rect x=\"-6\" y=\"-5\" width=\"12\" height=\"10\" fill=\"#c9dbf7\" stroke=\"#3367d6\"/>", "-wal length")) }
        if causes { items.append(("<path d=\"M0 -5l5 5l-5 5l-5 -5Z\" fill=\"#b00020\"/>", "the cause's operation")) }
        var svg = "", x = 20.0
        for (shape, label) in items {
            svg += "<g transform=\"translate(\(fmt(x)) \(fmt(y)))\">\(shape)</g><text x=\"\(fmt(x + 10))\" y=\"\(fmt(y + 4))\">\(h(label))</text>\n"
            x += 24 + Double(label.count) * 6.2
        }
        return svg
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
