import ArgumentParser
import Foundation
import Reporting
import Runner

/// `lifeboat drill`: the default drill on a scratch store: every strategy, its verdict, and a report.
struct DrillCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drill",
        abstract: "Run every strategy against a scratch store with WAL content and blobs; write reports/<run-id>/.")

    @Option(help: "Objects in the generated live store.") var objects: Int = 400
    @Option(help: "Transactions committed into the -wal while backups run.") var walTransactions: Int = 40
    @Option(help: "Seed of the generated store.") var seed: UInt64 = 1
    @Option(help: "Where reports go.") var reports: String = "reports"
    @Option(help: "Scratch directory (a fresh one below it is made and removed).") var scratch: String?
    @Flag(help: "Keep the scratch stores for inspection.") var keep = false

    func validate() throws {
        guard (10...50_000_000).contains(objects) else { throw ValidationError("--objects must be between 10 and 50000000") }
        guard (3...10_000_000).contains(walTransactions) else { throw ValidationError("--wal-transactions must be between 3 and 10000000") }
    }

    func run() throws {
        let run = try RunDirectory.create(root: URL(cliPath: reports))
        let base = scratch.map { URL(cliPath: $0) } ?? FileManager.default.temporaryDirectory
        let area = base.appendingPathComponent("lifeboat-drill-\(run.id)")
        defer { if !keep { try? FileManager.default.removeItem(at: area) } }
        let tty = isatty(STDOUT_FILENO) != 0
        let result = try StrategyMatrix(objects: objects, walTransactions: walTransactions, seed: seed)
            .run(scratch: area, runID: run.id) { step in if tty { print("  \(step)") } }
        try MatrixReport.write(result, to: run)
        try run.markLatest()
        for item in result.cases {
            let mark = TerminalStyle.outcome(item.matches ? "ok  " : "FAIL", good: item.matches)
            print("\(mark) \(item.operation.padding(toLength: 8, withPad: " ", startingAt: 0)) \(item.name.padding(toLength: 22, withPad: " ", startingAt: 0)) expected \(item.expected.padding(toLength: 9, withPad: " ", startingAt: 0)) got \(item.actual)")
            // The first finding in full, under the line, wrapped at the terminal's width (one line when piped).
            if let finding = item.findings.first {
                for line in FindingText.wrap(FindingText.relativePaths(FindingText.oneLine(finding)), width: TerminalStyle.columns, indent: "       ", hanging: "         ") { print(line) }
            }
        }
        print("verdict: \(TerminalStyle.outcome(result.passed ? "PASS" : "FAIL", good: result.passed)) — report: \(run.url.path)/report.md (reports/latest)")
        if keep { print("scratch kept at \(area.path)") }
        if !result.passed { throw ExitCode(1) }
    }
}
