import Checks
import Foundation

/// What a GitHub Actions job shows of a run's findings, where its users look: workflow-command annotations on the
/// run's page and the files, and the step summary. GitHub shows at most 10 annotations of a kind per step (and
/// drops the rest without a word) and at most 1 MiB of step summary, so:
///
/// - at most `annotationLimit` annotations, worst first, each naming the finding (invariant, consequence, where)
///   and its repro;
/// - the step summary (Markdown) holds the one-line verdict of every situation and every finding, numbered as the
///   annotations are; when it would pass `summaryLimit` bytes the rest is cut, with a line saying how many
///   findings and verdicts were cut and where the whole report is (the artifact).
///
/// A pure function of the findings and lines; the CLI prints the annotations and appends the summary to
/// `$GITHUB_STEP_SUMMARY`.
public enum GitHubActionsReport {
    public static let annotationLimit = 10
    public static let summaryLimit = 1 << 20

    public struct Output: Sendable, Equatable {
        /// The workflow commands, one line each (`::error file=...,line=1,title=...::message`).
        public var annotations: [String]
        public var summary: String
        /// Findings and verdict lines left out of the summary to keep it under the limit.
        public var cutFindings: Int
        public var cutVerdicts: Int
    }

    /// - Parameters:
    ///   - title: what ran ("lifeboat try --backup 'sh my-backup.sh' --seeds 1-3").
    ///   - verdicts: one line per situation (or scenario, or cell): "live-wal  CAUGHT wal-content-carried (3/3 seeds)".
    ///   - artifact: where the whole report is (a path in the job's artifact, or a link to it).
    public static func render(_ findings: [CIFinding], title: String, verdicts: [String], artifact: String?,
                              annotationLimit: Int = annotationLimit, summaryLimit: Int = summaryLimit) -> Output {
        let ranked = CIFinding.ranked(findings)
        let annotations = ranked.prefix(annotationLimit).enumerated().map { index, item in annotation(item, number: index + 1, of: ranked.count) }

        let head = "## Lifeboat: \(ranked.isEmpty ? "no findings" : "\(ranked.count) finding(s)")\n\n`\(inline(title))`\n\n"
        var verdictLines = verdicts.isEmpty ? [] : ["### Verdicts\n\n"] + verdicts.map { "- \(inline($0))\n" } + ["\n"]
        var findingLines: [String] = []
        if !ranked.isEmpty {
            let shown = min(annotationLimit, ranked.count)
            findingLines.append("### Findings, worst first\n\n" + (ranked.count > shown
                ? "The first \(shown) are annotations; all \(ranked.count) are here.\n\n" : "Each is an annotation too.\n\n"))
            findingLines.append("| # | invariant | severity | what is lost | where | cause | fix | repro |\n|---|---|---|---|---|---|---|---|\n")
            for (index, item) in ranked.enumerated() {
                let finding = item.finding
                let cells = ["\(index + 1)", "`\(finding.invariant)`", finding.appsOwn ? "the app's own" : finding.severity.title,
                             finding.consequence, "\(item.place) of `\(item.program)`", finding.cause ?? "", finding.fix ?? "",
                             item.repro.map { "`\($0)`" } ?? ""]
                findingLines.append("| " + cells.map(cell).joined(separator: " | ") + " |\n")
            }
        }
        // Cut from the end: findings rows first, then verdict lines, keeping room for the line that says so.
        let footerRoom = 400 + (artifact?.utf8.count ?? 0)
        func size(_ lines: [String]) -> Int { lines.reduce(0) { $0 + $1.utf8.count } }
        var cutFindings = 0, cutVerdicts = 0
        let tableHeader = findingLines.isEmpty ? 0 : 2
        var total = head.utf8.count + size(verdictLines) + size(findingLines) + footerRoom
        while total > summaryLimit {
            if findingLines.count > tableHeader {
                total -= findingLines.removeLast().utf8.count
                cutFindings += 1
            } else if verdictLines.count > 2 {
                total -= verdictLines.remove(at: verdictLines.count - 2).utf8.count
                cutVerdicts += 1
            } else {
                break
            }
        }
        var summary = head + verdictLines.joined() + findingLines.joined()
        if cutFindings + cutVerdicts > 0 {
            summary += "\n**Cut to stay under \(summaryLimit / 1024) KiB:** \(cutFindings) finding(s) and \(cutVerdicts) verdict line(s) are not shown here"
                + (artifact.map { "; the whole report is in \(inline($0))." } ?? ".") + "\n"
        } else if let artifact {
            summary += "\nThe whole report: \(inline(artifact)).\n"
        }
        return Output(annotations: annotations, summary: summary, cutFindings: cutFindings, cutVerdicts: cutVerdicts)
    }

    /// One workflow command: `::error` for what `SARIFReport.level` calls an error, `::warning` otherwise; on the
    /// program's file (or the scenario's line) when there is one.
    static func annotation(_ item: CIFinding, number: Int, of total: Int) -> String {
        let finding = item.finding
        let kind = SARIFReport.level(finding) == "error" ? "error" : "warning"
        var properties: [String] = []
        if let file = item.programFile ?? item.scenarioFile {
            properties.append("file=\(property(file))")
            properties.append("line=\(item.programFile != nil ? 1 : (item.scenarioLine ?? 1))")
        }
        properties.append("title=\(property("Lifeboat \(number)/\(total): \(finding.invariant) (\(finding.appsOwn ? "the app's own" : finding.severity.title))"))")
        var lines = ["\(finding.consequence), in \(item.place) of \(item.program)"]
        if let evidence = finding.evidence { lines.append("e.g. \(evidence)") }
        if let cause = finding.cause { lines.append("cause: \(cause)") }
        if let fix = finding.fix { lines.append("fix: \(fix)") }
        lines.append("repro: \(item.repro ?? "none (see the report)")")
        return "::\(kind) \(properties.joined(separator: ","))::\(data(lines.joined(separator: "\n")))"
    }

    /// A workflow command's message, escaped as the runner reads it (`%`, CR and LF).
    public static func data(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25").replacingOccurrences(of: "\r", with: "%0D").replacingOccurrences(of: "\n", with: "%0A")
    }

    /// A workflow command's property value: the message's escapes, and `:` and `,`, which end a value.
    public static func property(_ text: String) -> String {
        data(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }

    /// Text in a Markdown table cell: one line, pipes escaped.
    static func cell(_ text: String) -> String {
        FindingText.oneLine(text).replacingOccurrences(of: "|", with: "\\|")
    }

    /// Text on one Markdown line, with backticks left out of code spans' way.
    static func inline(_ text: String) -> String { FindingText.oneLine(text).replacingOccurrences(of: "`", with: "'") }
}
