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
        return PageStyle.open(title: "Lifeboat suite \(summary.suiteID)") + """
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

        """ + PageStyle.close
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
        typealias C = SVGChart
        let names = summary.scenarioTallies().map(\.scenario)
        let ran = summary.entries.filter { $0.status == .ran }
        guard !ran.isEmpty else { return "<p>No run took place.</p>" }
        let longest = max(0.001, ran.map(\.seconds).max() ?? 1)
        let left = 220.0, width = 960.0, row = 20.0, top = 8.0
        let height = top + Double(names.count) * row + 36
        func x(_ seconds: Double) -> Double { left + (width - left - 16) * min(max(seconds, 0), longest) / longest }
        var svg = C.open(width: width, height: height, label: "run durations by scenario")
        for (index, name) in names.enumerated() {
            let y = top + Double(index) * row
            svg += C.lane(String(name.prefix(32)), top: y, height: row, left: left, right: width - 16)
            for entry in ran where entry.scenario == name {
                let color = entry.isFlaky ? C.Color.amber : entry.expectationMet == true ? C.Color.good : C.Color.bad
                svg += C.circle(cx: x(entry.seconds), cy: y + row / 2, r: 4, fill: color, opacity: 0.6,
                                title: "\(name) seed \(entry.seed): \(String(format: "%.2f", entry.seconds)) s")
            }
        }
        svg += C.bottomAxis(end: longest, y: top + Double(names.count) * row, x: x) { "\(C.number($0)) s" }
        return svg + C.close
    }

    /// A stacked bar per invariant: held, violated, not applicable, scaled to the most runs of any.
    static func invariantChart(_ tallies: [SuiteSummary.InvariantTally]) -> String {
        typealias C = SVGChart
        guard !tallies.isEmpty else { return "<p>No verdicts.</p>" }
        let most = max(1, tallies.map { $0.held + $0.violated + $0.notApplicable }.max() ?? 1)
        let left = 220.0, width = 960.0, row = 22.0, top = 24.0
        let height = top + Double(tallies.count) * row + 8
        let scale = (width - left - 80) / Double(most)
        var svg = C.open(width: width, height: height, label: "verdicts by invariant")
        svg += C.legendRow([(.box(C.Color.good), "held"), (.box(C.Color.bad), "violated"), (.box(C.Color.muted), "not applicable")], x: left, y: 9)
        for (index, tally) in tallies.enumerated() {
            let y = top + Double(index) * row
            svg += C.lane(tally.invariant, top: y, height: row - 2, left: left, right: width, rule: false)
            let segments = [(tally.held, C.Color.good, "held"), (tally.violated, C.Color.bad, "violated"), (tally.notApplicable, C.Color.muted, "not applicable")]
                .filter { $0.0 > 0 }
                .map { C.Segment(length: Double($0.0) * scale, color: $0.1, title: "\(tally.invariant): \($0.0) \($0.2)") }
            svg += C.bar(segments, left: left, top: y + 3, height: 14, after: "\(tally.held)/\(tally.violated)/\(tally.notApplicable)")
        }
        return svg + C.close
    }

    static func h(_ text: String) -> String { PageText.html(text) }
}
