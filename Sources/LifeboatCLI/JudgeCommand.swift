import ArgumentParser
import Checks
import Foundation
import Reporting
import Runner

/// `lifeboat judge RUN_DIR`: judges a stored run again from its record (`record.json`), running nothing (Jepsen's
/// `analyze`): the verdicts a run's record gives are the run's verdicts, so a newer Lifeboat can re-check an old
/// run, and a stored run shows that judging is a pure function of what was recorded.
struct JudgeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "judge",
        abstract: "Judge a stored run again from its record.json, running nothing.",
        discussion: """
            Prints the verdicts the record gives now and whether they are the ones the run reported (report.json). \
            Exit 0 as expected, 1 not as expected, 2 bad input (no record.json, another schema), the same codes as `lifeboat run`.
            """)

    @Argument(help: "A run directory (reports/<run-id>, or a suite folder's runs/<run-id>) holding record.json.") var folder: String

    func run() throws {
        let url = URL(cliPath: folder)
        let record: RunRecord
        do { record = try RecordFile.read(url.appendingPathComponent(RecordFile.name)) } catch {
            throw CLIFailure.badInput("\(folder): cannot judge: \(error)")
        }
        let result = RunResult.judged(record)
        print("== \(result.scenario) (\(record.runID), seed \(result.seed), expect \(result.expectation)), judged again from its record")
        RunCommand.printRun(result, directory: RunDirectory(existing: url))
        if let data = try? Data(contentsOf: url.appendingPathComponent("report.json")),
           let stored = try? JSONDecoder().decode(RunResult.self, from: data) {
            let changed = Self.differences(stored.verdicts, result.verdicts)
            print(changed.isEmpty ? "   the same verdicts as the run reported (report.json)"
                  : "   differs from the run's report.json:\n" + changed.map { "     \($0)" }.joined(separator: "\n"))
        }
        if result.environmentError != nil { throw CLIFailure.badInput("not run: environment error: \(result.environmentError ?? "")") }
        if !result.expectationMet { throw ExitCode(1) }
    }

    /// Invariants whose status changed between two judgements, one line each.
    static func differences(_ before: [Verdict], _ after: [Verdict]) -> [String] {
        let old = Dictionary(before.map { ($0.invariant, $0.status) }, uniquingKeysWith: { first, _ in first })
        return after.compactMap { verdict in
            let was = old[verdict.invariant]
            return was == verdict.status ? nil : "\(verdict.invariant): \(was?.rawValue ?? "absent") -> \(verdict.status.rawValue)"
        }
    }
}
