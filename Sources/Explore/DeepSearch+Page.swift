import Foundation
import Reporting

/// `deep.md`, `try --deep`'s page, apart from the search it reports on: a pure function of the summary, its
/// table cells through Reporting's one Markdown escaper.
extension DeepSearch {
    /// The page: what the program did, the walks, every finding with its call, cause and repro, the hung points.
    public static func markdown(_ summary: Summary) -> String {
        var lines = ["# `lifeboat try --deep`", ""]
        for (program, calls) in summary.calls.sorted(by: { $0.key < $1.key }) {
            lines.append("- \(program) made " + probedOps.map { "\(calls[$0.rawValue] ?? 0) \($0)" }.joined(separator: ", "))
        }
        lines += ["", coverage(summary) + " in \(summary.runs) runs, \(String(format: "%.0f", summary.seconds)) s"
                  + (summary.incomplete.map { "; incomplete: \($0)" } ?? "")
                  + (summary.plan?.shard.map { "; shard \($0.index) of \($0.count): the plan's walks \($0.index), \($0.index + $0.count), ... (`lifeboat report merge` the shards' folders for the whole)" } ?? ""), "",
                  "| walk | points | the program's calls |", "|---|---|---|"]
        for walk in summary.walks {
            lines.append("| \(PageText.markdownCell(walk.label)) | \(walk.count)" + (walk.only.map { " (N = " + $0.map(String.init).joined(separator: ", ") + ")" } ?? "")
                         + " | \(walk.calls ?? walk.count) |")
        }
        if let causes = summary.rootCauses, !causes.isEmpty {
            // One known cause shown once, with its fix, over the findings it explains (which follow, each naming it).
            lines += ["", "## Root causes", "", "| root cause | fix | findings |", "|---|---|---|"]
            for cause in causes {
                lines.append("| **\(cause.name)**: \(PageText.markdownCell(cause.title)) | \(PageText.markdownCell(cause.fix)) | \(cause.points.count): "
                             + PageText.markdownCell(cause.points.joined(separator: "; ")) + " |")
            }
        }
        lines += ["", summary.findings.isEmpty ? "No finding." : "## Findings", ""]
        for finding in summary.findings {
            lines.append("- **\(finding.violated.joined(separator: ", "))** at \(finding.walk), N=\(finding.n): \(finding.operation)"
                         + (finding.afterSwap == true ? " (after the swap)" : "")
                         + (finding.rootCause.map { " (root cause: \($0))" } ?? ""))
            for line in finding.evidence { lines.append("  - \(line)") }
            if let cause = finding.cause { lines.append("  - cause: \(cause)") }
            if let repro = finding.repro { lines.append("  - replay: `lifeboat replay \(repro)`") }
            if let shrunk = shrinkLine(finding.shrink) { lines.append("  - \(shrunk)") }
        }
        if let swaps = summary.afterSwap, !swaps.isEmpty {
            // A restore's calls past the one that put the backup in place: its removal of the old files, its
            // cleanup, its last syncs; at each the app is relaunched on the restored store and commits.
            lines += ["", "## After the swap", ""]
            lines += swaps.sorted { $0.key < $1.key }.map { "- " + PageText.markdownCell(afterSwapLine($0.key, $0.value)) }
            lines.append("")
            lines.append("At each point the app is relaunched on the restored store (SQLite replays any -wal it finds beside it) and commits; "
                         + "`no-duplicates`, `restore-equals-backup` and `live-store-unaffected` judge what it found and did.")
        }
        if let tables = summary.ioCoverage, !tables.isEmpty {
            // What each call was answered with, over the whole search: met (success), faulted at N points, not
            // tried, or unreachable (no such answer to such a call).
            lines += ["", "## Input/output coverage", "", ioShare(tables) + ".", ""]
            for (program, cells) in tables.sorted(by: { $0.key < $1.key }) {
                lines += ["| \(program) | " + ioAnswers.map(\.description).joined(separator: " | ") + " |", "|---|" + ioAnswers.map { _ in "---|" }.joined()]
                for op in ioOps {
                    let row = cells.filter { $0.op == op }
                    guard !row.isEmpty else { continue }
                    lines.append("| \(op.rawValue) | " + ioAnswers.map { answer in
                        guard let cell = row.first(where: { $0.answer == answer }) else { return "" }
                        switch cell.status {
                        case .met: return "met (\(cell.calls))"
                        case .faulted: return "faulted at \(cell.calls)"
                        case .unreachable: return "—"
                        case .notTried: return "**not tried**"
                        }
                    }.joined(separator: " | ") + " |")
                }
                let untried = cells.filter { $0.status == .notTried }
                if !untried.isEmpty {
                    lines += [""] + untried.map { "- \(program): \($0.op.rawValue) \($0.answer) not tried: \($0.reason ?? "")" }
                }
                lines.append("")
            }
            lines.append("—: no local file system gives that answer to that call (EINTR: a local file's call is not interrupted; a short transfer: only a write has a byte count; ENOSPC, EDQUOT: only a write or an fsync allocates; EROFS: only a call that changes the file system).")
        }
        if let hung = summary.hung, !hung.isEmpty {
            // Not findings of an invariant: points that judged nothing because the program never returned (each
            // stopped at its run's time limit), listed so that "held at every point" is never said of them.
            lines += ["", "## Hung points", "",
                      "The program never returned at these points; each run was stopped at its time limit ("
                      + (summary.pointSeconds ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key) \(Int($0.value)) s" }.joined(separator: ", ")
                      + "), its processes killed and its volume unmounted, and the search went on.", ""]
            for point in hung {
                lines.append("- **hung** at \(point.walk), N=\(point.n): \(point.operation)")
                for line in point.evidence { lines.append("  - \(line)") }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }
}
