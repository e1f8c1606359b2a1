import Foundation
import Reporting

/// `walk.md` and `walk.html` beside the state file (`walk.json`): the table N -> operation hit -> verdicts, the
/// repros of failing Ns and the coverage summed over the walk's runs.
public enum FaultWalkReport {
    public static func write(_ state: FaultWalk.State, to directory: URL) throws {
        try Data(markdown(state).utf8).write(to: directory.appendingPathComponent("walk.md"), options: .atomic)
        try Data(html(state).utf8).write(to: directory.appendingPathComponent("walk.html"), options: .atomic)
    }

    public static func headline(_ state: FaultWalk.State) -> String {
        let c = state.config
        let failing = state.rows.filter { $0.outcome == "violated" }
        let notRun = state.rows.filter { $0.outcome == FaultWalk.notRun }.count
        return "\(state.rows.count - notRun) run(s)" + (notRun > 0 ? " (\(notRun) not run)" : "") + " in \(String(format: "%.1f", state.seconds)) s over `\(c.ops.text)` on `\(c.path)` -> `\(c.action)`"
            + (c.shards > 1 ? ", shard \(c.shard)/\(c.shards)" : "")
            + "; first failing N: \(state.firstFailing.map { String($0.n) } ?? "none"); \(failing.count) failing N(s); "
            + (state.finished ?? "not finished (rerun with the same --directory to continue)")
    }

    public static func markdown(_ state: FaultWalk.State) -> String {
        var lines = ["# Lifeboat fault walk: \(state.scenario)", "", headline(state) + ".", "",
                     "| N | operation hit | outcome | violated | repro | run |", "|---|---|---|---|---|---|"]
        for row in state.rows {
            let hit = row.fired ? (row.hit?.summary ?? "fired") : "(no fault fired)"
            lines.append("| \(row.n) | \(escape(hit)) | \(row.outcome) | \(row.violated.joined(separator: ", ")) | \(row.repro.map { "`\(URL(fileURLWithPath: $0).lastPathComponent)`" } ?? "") | \(URL(fileURLWithPath: row.report).lastPathComponent) |")
        }
        let failing = state.rows.filter { $0.outcome != "held" && ($0.fired || $0.outcome == FaultWalk.notRun) }
        if !failing.isEmpty {
            lines += ["", "## Evidence", ""]
            for row in failing {
                lines.append("- N=\(row.n): " + escape((row.evidence + row.errors).prefix(2).joined(separator: "; ")) + (row.cause.map { " — cause: " + escape($0) } ?? ""))
            }
        }
        lines += CoverageTable.markdown(state.coverage)
        return lines.joined(separator: "\n") + "\n"
    }

    public static func html(_ state: FaultWalk.State) -> String {
        var rows = ""
        for row in state.rows {
            let hit = row.fired ? (row.hit?.summary ?? "fired") : "(no fault fired)"
            let css = row.outcome == "violated" ? " class=\"violated\"" : ""
            rows += "<tr\(css)><td>\(row.n)</td><td>\(h(hit))</td><td>\(row.outcome)</td><td>\(h(row.violated.joined(separator: ", ")))</td><td>\(h(row.repro.map { URL(fileURLWithPath: $0).lastPathComponent } ?? ""))</td><td>\(h((row.evidence + row.errors).first ?? ""))\(row.cause.map { "<br><strong>cause:</strong> " + h($0) } ?? "")</td></tr>\n"
        }
        return PageStyle.open(title: "Lifeboat fault walk \(state.scenario)") + """
        <h1>Lifeboat fault walk: \(h(state.scenario))</h1>
        <p>\(h(headline(state).replacingOccurrences(of: "`", with: "")))</p>
        <table><tr><th>N</th><th>operation hit</th><th>outcome</th><th>violated</th><th>repro</th><th>evidence</th></tr>
        \(rows)</table>
        \(CoverageTable.html(state.coverage))

        """ + PageStyle.close
    }

    static func escape(_ text: String) -> String { PageText.markdownCell(text) }

    static func h(_ text: String) -> String { PageText.html(text) }
}
