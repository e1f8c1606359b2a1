import Checks
import Foundation

/// Two small report sections, apart from the rest of the run report: the writers' commit latency during each
/// backup and restore (`CommitStalls`: p50, p99, the longest stall and whose it was), and what each `damage`
/// entry damaged (`DamageRecord`). Markdown and HTML; empty when the run had neither.
public enum StallsAndDamage {
    public static func markdown(_ result: RunResult) -> [String] {
        var lines: [String] = []
        if let stalls = result.stalls, !stalls.isEmpty {
            lines += ["", "## Commit latency during each step", "",
                      "The writers' commits whose save overlapped the step (intent to ack in their histories).", "",
                      "| step | window (s) | commits | p50 | p99 | longest stall |", "|---|---|---|---|---|---|"]
            for stall in stalls { lines.append("| \(stall.step) | \(window(stall)) | \(stall.commits) | \(cell(stall.p50)) | \(cell(stall.p99)) | \(longest(stall)) |") }
        }
        if let damages = result.damages, !damages.isEmpty {
            lines += ["", "## Damage", ""] + damages.map { "- \($0.name): \(PageText.markdownCell($0.summary))" }
        }
        return lines
    }

    public static func html(_ result: RunResult) -> String {
        var out = ""
        if let stalls = result.stalls, !stalls.isEmpty {
            out += "<h2>Commit latency during each step</h2><p>The writers' commits whose save overlapped the step (intent to ack in their histories).</p>"
            out += "<table><tr><th>step</th><th>window (s)</th><th>commits</th><th>p50</th><th>p99</th><th>longest stall</th></tr>"
            for stall in stalls {
                out += "<tr><td>\(PageText.html(stall.step))</td><td>\(window(stall))</td><td>\(stall.commits)</td><td>\(cell(stall.p50))</td><td>\(cell(stall.p99))</td><td>\(PageText.html(longest(stall)))</td></tr>"
            }
            out += "</table>"
        }
        if let damages = result.damages, !damages.isEmpty {
            out += "<h2>Damage</h2><ul>" + damages.map { "<li>\(PageText.html($0.name)): \(PageText.html($0.summary))</li>" }.joined() + "</ul>"
        }
        return out
    }

    static func window(_ stall: StepStall) -> String { String(format: "%.3f to %.3f", stall.start, stall.end) }
    static func cell(_ value: Double?) -> String { value.map(StepStall.seconds) ?? "-" }
    static func longest(_ stall: StepStall) -> String {
        guard let value = stall.longest else { return "-" }
        return StepStall.seconds(value) + (stall.longestWriter.map { " (writer \($0) tx \(stall.longestSeq ?? 0))" } ?? "")
    }
}
