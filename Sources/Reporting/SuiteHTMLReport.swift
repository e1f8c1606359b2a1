import Checks
import Foundation

/// The suite's `index.html`: one self-contained page (inline CSS and SVG, no scripts, no external resources)
/// with the outcome, a table per scenario and per invariant, two charts (run durations per scenario, verdicts
/// by invariant) and a table of every pair linking to its run's report. Every link is relative to the suite
/// folder, so the page works where CI unpacks the folder as an artifact.
public enum SuiteHTMLReport {
    public static func render(_ summary: SuiteSummary) -> String {
        let outcome = summary.computeOutcome()
        let scenarios = summary.scenarioTallies()
        let invariants = summary.invariantTallies()
        let outcomeClass = outcome.code == 0 ? "ok" : outcome.code == 1 ? "bad" : "warn"
        var scenarioRows = ""
        let demonstrates = Dictionary(summary.campaign.scenarios.compactMap { ref in ref.demonstrates.map { (ref.name, $0) } }, uniquingKeysWith: { a, _ in a })
        for tally in scenarios {
            let what = demonstrates[tally.scenario].map { "<br><small>\(h($0))</small>" } ?? ""
            let first = tally.firstFailure.map { failure in
                "seed \(failure.seed): \(h(failure.detail))" + (failure.repro.map { " (<a href=\"\(h($0))\">repro</a>)" } ?? "")
            } ?? ""
            scenarioRows += "<tr class=\"\(tally.unexpected > 0 ? "violated" : "")\"><td>\(h(tally.scenario))\(what)</td><td>\(h(tally.expectation))</td><td>\(tally.pairs)</td><td>\(tally.asExpected)</td><td>\(tally.unexpected)</td><td>\(tally.flaky)</td><td>\(tally.skipped)</td><td>\(tally.notRun)</td><td>\(String(format: "%.1f", tally.seconds))</td><td>\(first)</td></tr>\n"
        }
        var invariantRows = ""
        for tally in invariants {
            let first = tally.firstFailure.map { failure in
                "\(h(failure.scenario)) seed \(failure.seed)" + (failure.repro.map { " (<a href=\"\(h($0))\">repro</a>)" } ?? "")
            } ?? ""
            invariantRows += "<tr class=\"\(tally.failures > 0 ? "violated" : "")\"><td>\(h(tally.invariant))</td><td>\(tally.held)</td><td>\(tally.violated)</td><td>\(tally.notApplicable)</td><td>\(tally.failures)</td><td>\(tally.flaky)</td><td>\(first)</td></tr>\n"
        }
        var runRows = ""
        for entry in summary.entries {
            let (word, css) = verdictWord(entry)
            let violated = entry.verdicts.filter { $0.status == .violated }.map(\.invariant).joined(separator: ", ")
            var links = ""
            if let run = entry.run {
                links = "<a href=\"\(h(run.path))/report.html\">report</a> · <a href=\"\(h(run.path))/repro.yaml\">repro</a>"
                for (index, rerun) in entry.reruns.enumerated() {
                    links += " · <a href=\"\(h(rerun.path))/report.html\">rerun \(index + 1)</a>"
                }
            }
            var detail = entry.reason ?? (entry.flaky.isEmpty ? violated : "flaky: \(entry.flaky.joined(separator: ", ")); violated first: \(violated)")
            if let reproduction = entry.reproduction { detail += " (\(reproduction.invariant) \(reproduction.text))" }
            if let cause = entry.verdicts.first(where: { $0.status == .violated && $0.cause != nil })?.cause { detail += " — cause: \(cause)" }
            runRows += "<tr class=\"\(css)\"><td>\(h(entry.scenario))</td><td>\(entry.seed)</td><td>\(word)</td><td>\(h(entry.expectation))</td><td>\(h(detail))</td><td>\(String(format: "%.1f", entry.seconds))</td><td>\(links)</td></tr>\n"
        }
        let shard = summary.shard.map { "shard \($0.index) of \($0.count); " } ?? ""
        let merged = summary.mergedFrom.isEmpty ? "" : "merged from \(summary.mergedFrom.count) shard(s); "
        let fuse = summary.fuse.available ? "" : "<p class=\"warn\">FUSE unavailable: \(h(summary.fuse.reason ?? "")). Drills that need FaultFS were skipped.</p>"
        return """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>Lifeboat suite \(h(summary.suiteID))</title>
        <style>
        body{font:14px/1.4 system-ui,sans-serif;margin:2em;color:#222;max-width:1200px}
        h1{font-size:1.4em} .ok{color:#176f2c} .bad{color:#b00020} .warn{color:#8a5a00}
        table{border-collapse:collapse;margin:1em 0;width:100%} td,th{border:1px solid #ccc;padding:3px 7px;text-align:left;vertical-align:top}
        th{background:#f4f4f4} tr.violated td{background:#fde8ea} tr.flaky td{background:#fff4d6} tr.skipped td{color:#777;background:#f7f7f7}
        svg text{font:11px system-ui,sans-serif} code{background:#f3f3f3;padding:1px 4px}
        </style></head><body>
        <h1>Lifeboat suite \(h(summary.suiteID))</h1>
        <p class="\(outcomeClass)"><strong>\(outcome.word.uppercased())</strong> (exit \(outcome.code)): \(outcome.asExpected) of \(outcome.ran) run(s) as expected, \(outcome.unexpected) unexpected, \(outcome.flaky) flaky, \(outcome.skipped) skipped, \(outcome.notRun) not run.</p>
        <p>Campaign <code>\(h(String(summary.campaign.id.prefix(16))))</code> (lifeboat \(h(summary.campaign.lifeboatVersion))): \(summary.campaign.scenarios.count) scenario(s) x seeds \(h(summary.campaign.seeds)) = \(summary.campaign.pairs.count) pair(s); \(shard)\(merged)started \(h(summary.startedAt)); \(String(format: "%.1f", summary.seconds)) s. Files: <a href="summary.json">summary.json</a> · <a href="junit.xml">junit.xml</a></p>
        \(fuse)
        <h2>Scenarios</h2>
        <table><tr><th>scenario</th><th>expects</th><th>pairs</th><th>as expected</th><th>unexpected</th><th>flaky</th><th>skipped</th><th>not run</th><th>time (s)</th><th>first failing seed</th></tr>
        \(scenarioRows)</table>
        <h2>Run durations</h2>
        \(durationChart(summary))
        <h2>Invariants</h2>
        \(invariantChart(invariants))
        <table><tr><th>invariant</th><th>held</th><th>violated</th><th>not applicable</th><th>unexpected</th><th>flaky</th><th>first unexpected</th></tr>
        \(invariantRows)</table>
        <h2>Runs</h2>
        <table><tr><th>scenario</th><th>seed</th><th>verdict</th><th>expects</th><th>violated, or why not run</th><th>time (s)</th><th>report</th></tr>
        \(runRows)</table>
        </body></html>

        """
    }

    static func verdictWord(_ entry: SuiteEntry) -> (String, String) {
        switch entry.status {
        case .skipped: return ("skipped", "skipped")
        case .notRun: return ("not run", "skipped")
        case .ran:
            if entry.isFlaky { return (entry.expectationMet == true ? "as expected (flaky)" : "UNEXPECTED (flaky)", "flaky") }
            return entry.expectationMet == true ? ("as expected", "") : ("UNEXPECTED", "violated")
        }
    }

    /// One row per scenario, a dot per run at its duration: green as expected, red not, amber flaky.
    static func durationChart(_ summary: SuiteSummary) -> String {
        let names = summary.scenarioTallies().map(\.scenario)
        let ran = summary.entries.filter { $0.status == .ran }
        guard !ran.isEmpty else { return "<p>No run took place.</p>" }
        let longest = max(0.001, ran.map(\.seconds).max() ?? 1)
        let left = 220.0, width = 960.0, row = 20.0, top = 8.0
        let height = top + Double(names.count) * row + 36
        func x(_ seconds: Double) -> Double { left + (width - left - 16) * min(max(seconds, 0), longest) / longest }
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"run durations by scenario\">\n"
        for (index, name) in names.enumerated() {
            let y = top + Double(index) * row
            svg += "<text x=\"4\" y=\"\(HTMLReport.fmt(y + 14))\">\(h(String(name.prefix(32))))</text><line x1=\"\(left)\" x2=\"\(width - 16)\" y1=\"\(HTMLReport.fmt(y + 10))\" y2=\"\(HTMLReport.fmt(y + 10))\" stroke=\"#eee\"/>\n"
            for entry in ran where entry.scenario == name {
                let color = entry.isFlaky ? "#d08a00" : entry.expectationMet == true ? "#2e9e4f" : "#b00020"
                svg += "<circle cx=\"\(HTMLReport.fmt(x(entry.seconds)))\" cy=\"\(HTMLReport.fmt(y + 10))\" r=\"4\" fill=\"\(color)\" fill-opacity=\"0.6\"><title>\(h(name)) seed \(entry.seed): \(String(format: "%.2f", entry.seconds)) s</title></circle>\n"
            }
        }
        let bottom = top + Double(names.count) * row
        let step = HTMLReport.niceStep(longest)
        var tick = 0.0
        while tick <= longest + 1e-9 {
            svg += "<line x1=\"\(HTMLReport.fmt(x(tick)))\" x2=\"\(HTMLReport.fmt(x(tick)))\" y1=\"\(HTMLReport.fmt(bottom))\" y2=\"\(HTMLReport.fmt(bottom + 4))\" stroke=\"#444\"/><text x=\"\(HTMLReport.fmt(x(tick) - 6))\" y=\"\(HTMLReport.fmt(bottom + 18))\">\(HTMLReport.fmt(tick)) s</text>\n"
            tick += step
        }
        return svg + "</svg>"
    }

    /// A stacked bar per invariant: held, violated, not applicable, scaled to the most runs of any.
    static func invariantChart(_ tallies: [SuiteSummary.InvariantTally]) -> String {
        guard !tallies.isEmpty else { return "<p>No verdicts.</p>" }
        let most = max(1, tallies.map { $0.held + $0.violated + $0.notApplicable }.max() ?? 1)
        let left = 220.0, width = 960.0, row = 22.0, top = 24.0
        let height = top + Double(tallies.count) * row + 8
        let scale = (width - left - 80) / Double(most)
        var svg = "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" viewBox=\"0 0 \(Int(width)) \(Int(height))\" role=\"img\" aria-label=\"verdicts by invariant\">\n"
        svg += "<rect x=\"\(left)\" y=\"4\" width=\"10\" height=\"10\" fill=\"#2e9e4f\"/><text x=\"\(left + 14)\" y=\"13\">held</text><rect x=\"\(left + 60)\" y=\"4\" width=\"10\" height=\"10\" fill=\"#b00020\"/><text x=\"\(left + 74)\" y=\"13\">violated</text><rect x=\"\(left + 140)\" y=\"4\" width=\"10\" height=\"10\" fill=\"#bbb\"/><text x=\"\(left + 154)\" y=\"13\">not applicable</text>\n"
        for (index, tally) in tallies.enumerated() {
            let y = top + Double(index) * row
            svg += "<text x=\"4\" y=\"\(HTMLReport.fmt(y + 14))\">\(h(tally.invariant))</text>\n"
            var x = left
            for (count, color, label) in [(tally.held, "#2e9e4f", "held"), (tally.violated, "#b00020", "violated"), (tally.notApplicable, "#bbb", "not applicable")] where count > 0 {
                let w = Double(count) * scale
                svg += "<rect x=\"\(HTMLReport.fmt(x))\" y=\"\(HTMLReport.fmt(y + 3))\" width=\"\(HTMLReport.fmt(max(1, w)))\" height=\"14\" fill=\"\(color)\"><title>\(h(tally.invariant)): \(count) \(label)</title></rect>\n"
                x += w
            }
            svg += "<text x=\"\(HTMLReport.fmt(x + 6))\" y=\"\(HTMLReport.fmt(y + 14))\">\(tally.held)/\(tally.violated)/\(tally.notApplicable)</text>\n"
        }
        return svg + "</svg>"
    }

    static func h(_ text: String) -> String { HTMLReport.h(text) }
}
