import Checks
import Foundation

/// `report.html`: one self-contained page (inline CSS and SVG, no scripts, no external links): the verdict, a
/// timeline of writers, backups, restores and faults, the invariant table and the evidence.
public enum HTMLReport {
    /// `repro` is the replay file's path as a reader should type it (the run folder's real path; inside a suite
    /// folder that is `runs/<run-id>`); `reports/<run-id>/repro.yaml` when not given.
    public static func render(_ result: RunResult, repro: String? = nil) -> String {
        let verdictClass = result.expectationMet ? "ok" : "bad"
        var rows = "", appRows = ""
        for verdict in result.verdicts {
            let row = "<tr class=\"\(verdict.status.rawValue)\"><td>\(h(verdict.invariant))</td><td>\(h(verdict.status.rawValue))</td><td>\(h(verdict.summary))</td></tr>\n"
            if verdict.isAppsOwn { appRows += row } else { rows += row }
        }
        // The app's own findings (Core Data's behaviour) stand apart from the program's verdicts.
        let apps = appRows.isEmpty ? "" : """
            <h2>The app's own</h2>
            <p>What the app itself loses (Core Data's behaviour), whatever the program under test does: reported apart, and not counted against it.</p>
            <table><tr><th>invariant</th><th>verdict</th><th>summary</th></tr>
            \(appRows)</table>

            """
        var evidence = ""
        for verdict in result.verdicts.sorted(by: { !$0.isAppsOwn && $1.isAppsOwn }) where !verdict.evidence.isEmpty {
            evidence += "<h3>\(h(verdict.invariant))\(verdict.isAppsOwn ? " (the app's own)" : "")</h3>" + (verdict.cause.map { "<p class=\"cause\"><strong>Cause:</strong> \(h($0))</p>" } ?? "")
                + (verdict.fix.map { "<p class=\"fix\"><strong>Fix:</strong> \(h($0))</p>" } ?? "") + "<ul>" + verdict.evidence.map { "<li>\(h($0))</li>" }.joined() + "</ul>\n"
        }
        var operations = ""
        for op in result.operations {
            let details = op.details.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            operations += "<tr><td>\(h(op.name))</td><td>\(h(op.strategy))</td><td>\(String(format: "%.3f", op.start))</td><td>\(String(format: "%.3f", op.end))</td><td>\(op.succeeded ? "ok" : h("failed: " + (op.error ?? "")))</td><td>\(h(details))</td></tr>\n"
        }
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Lifeboat \(h(result.scenario)) \(h(result.runID))</title>
        <style>
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1100px}
        h1{font-size:1.4em} .ok{color:#176f2c} .bad{color:#b00020}
        table{border-collapse:collapse;margin:1em 0;width:100%} td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}
        tr.violated td{background:#fde8ea} tr.held td:nth-child(2){color:#176f2c} tr.not-applicable td{color:#777}
        svg text{font:11px system-ui,sans-serif} code{background:#f3f3f3;padding:1px 4px}
        </style></head><body>
        <h1>Lifeboat run \(h(result.runID)): \(h(result.scenario))</h1>
        <p>\(h(result.description))</p>
        <p class="\(verdictClass)"><strong>\(result.expectationMet ? "AS EXPECTED" : "UNEXPECTED")</strong>: expected \(h(result.expectation)); seed \(result.seed); \(String(format: "%.2f", result.seconds)) s. Replay with <code>lifeboat run \(h(repro ?? "reports/\(result.runID)/repro.yaml"))</code>.</p>
        <h2>Timeline</h2>
        \(timeline(result))
        <h2>Invariants</h2>
        <table><tr><th>invariant</th><th>verdict</th><th>summary</th></tr>
        \(rows)</table>
        \(apps)<h2>Operations</h2>
        <table><tr><th>operation</th><th>strategy</th><th>start (s)</th><th>end (s)</th><th>result</th><th>details</th></tr>
        \(operations)</table>
        \(StallsAndDamage.html(result))\(CoverageTable.html(result.coverage))<h2>Evidence</h2>
        \(evidence.isEmpty ? "<p>None: no invariant was violated.</p>" : evidence)
        \(result.errors.isEmpty ? "" : "<h2>Run errors</h2><ul>" + result.errors.map { "<li>\(h($0))</li>" }.joined() + "</ul>")
        </body></html>

        """
    }

    /// Lanes: one per writer (a tick per commit), one per operation (a bar), faults and crashes as red lines.
    public static func timeline(_ result: RunResult) -> String {
        let lanes = result.writers.map { "writer-\($0.writer)" } + result.operations.map(\.name)
        let end = max(0.001, ([result.seconds] + result.operations.map(\.end) + result.events.map(\.t)).max() ?? 1)
        let left = 110.0, width = 960.0, laneHeight = 22.0, top = 10.0
        let height = top + Double(lanes.count) * laneHeight + 40
        func x(_ t: Double) -> Double { left + (width - left - 10) * min(max(t, 0), end) / end }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"timeline\">\n"
        for (index, lane) in lanes.enumerated() {
            let y = top + Double(index) * laneHeight
            svg += "<text x=\"4\" y=\"\(y + 15)\">\(h(lane))</text><line x1=\"\(left)\" x2=\"\(width - 10)\" y1=\"\(y + 11)\" y2=\"\(y + 11)\" stroke=\"#eee\"/>\n"
        }
        for (index, writer) in result.writers.enumerated() {
            let y = top + Double(index) * laneHeight
            var path = ""
            for t in writer.commitTimes { path += "M\(fmt(x(t))) \(fmt(y + 5))v12" }
            if !path.isEmpty { svg += "<path d=\"\(path)\" stroke=\"#3367d6\" stroke-width=\"1\"/>\n" }
        }
        for (index, op) in result.operations.enumerated() {
            let y = top + Double(result.writers.count + index) * laneHeight
            let color = op.succeeded ? (op.action == "backup" ? "#2e9e4f" : "#e08a00") : "#b00020"
            svg += "<rect x=\"\(fmt(x(op.start)))\" y=\"\(fmt(y + 4))\" width=\"\(fmt(max(2, x(op.end) - x(op.start))))\" height=\"14\" fill=\"\(color)\"><title>\(h(op.name)) \(h(op.strategy)) \(String(format: "%.3f", op.start))-\(String(format: "%.3f", op.end)) s</title></rect>\n"
        }
        let bottom = top + Double(lanes.count) * laneHeight
        for event in result.events where event.kind == .fault || event.kind == .crash {
            svg += "<line x1=\"\(fmt(x(event.t)))\" x2=\"\(fmt(x(event.t)))\" y1=\"\(top)\" y2=\"\(bottom)\" stroke=\"#b00020\" stroke-dasharray=\"4 2\"><title>\(h(event.detail))</title></line>\n"
            svg += "<text x=\"\(fmt(x(event.t) + 3))\" y=\"\(fmt(bottom + 12))\" fill=\"#b00020\">\(h(event.kind.rawValue))</text>\n"
        }
        let step = niceStep(end)
        var tick = 0.0
        while tick <= end + 1e-9 {
            svg += "<line x1=\"\(fmt(x(tick)))\" x2=\"\(fmt(x(tick)))\" y1=\"\(bottom)\" y2=\"\(bottom + 4)\" stroke=\"#444\"/><text x=\"\(fmt(x(tick) - 6))\" y=\"\(bottom + 28)\">\(fmt(tick)) s</text>\n"
            tick += step
        }
        return svg + "</svg>"
    }

    static func niceStep(_ span: Double) -> Double {
        let raw = span / 8
        let magnitude = pow(10, floor(log10(max(raw, 1e-6))))
        for factor in [1.0, 2, 5, 10] where raw <= factor * magnitude { return factor * magnitude }
        return 10 * magnitude
    }

    static func fmt(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(format: "%.2f", value)
    }

    static func h(_ text: String) -> String { PageText.html(text) }
}
