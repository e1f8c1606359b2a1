import Foundation
import Reporting

/// `deep.md`, `try --deep`'s page, apart from the search it reports on: a pure function of the summary, its
/// table cells through Reporting's one Markdown escaper.
extension DeepSearch {
    /// The page: what the program did, the walks, every finding with its call, cause and repro.
    public static func markdown(_ summary: Summary) -> String {
        var lines = ["# `lifeboat try --deep`", ""]
        for (program, calls) in summary.calls.sorted(by: { $0.key < $1.key }) {
            lines.append("- \(program) made " + probedOps.map { "\(calls[$0] ?? 0) \($0)" }.joined(separator: ", "))
        }
        lines += ["", coverage(summary) + " in \(summary.runs) runs, \(String(format: "%.0f", summary.seconds)) s"
                  + (summary.incomplete.map { "; incomplete: \($0)" } ?? "")
                  + (summary.plan?.shard.map { "; shard \($0.index) of \($0.count): the plan's walks \($0.index), \($0.index + $0.count), ... (`lifeboat report merge` the shards' folders for the whole)" } ?? ""), "",
                  "| walk | points | the program's calls |", "|---|---|---|"]
        for walk in summary.walks {
            lines.append("| \(PageText.markdownCell(walk.label)) | \(walk.count)" + (walk.only.map { " (N = " + $0.map(String.init).joined(separator: ", ") + ")" } ?? "")
                         + " | \(walk.calls ?? walk.count) |")
        }
        lines += ["", summary.findings.isEmpty ? "No finding." : "## Findings", ""]
        for finding in summary.findings {
            lines.append("- **\(finding.violated.joined(separator: ", "))** at \(finding.walk), N=\(finding.n): \(finding.operation)")
            for line in finding.evidence { lines.append("  - \(line)") }
            if let cause = finding.cause { lines.append("  - cause: \(cause)") }
            if let repro = finding.repro { lines.append("  - replay: `lifeboat replay \(repro)`") }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
