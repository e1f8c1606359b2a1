import ArgumentParser
import Explore
import Foundation
import Reporting
import Runner
import Scenario

extension CrashStatesCommand {
    /// `crash-states --compare-reductions`: one recording, enumerated with every reduction and with none
    /// (`CrashStateReductionCheck`); writes `crash-states-reductions.json` and prints both enumerations' figures
    /// and any finding one found and the other did not.
    func runComparison(_ parsed: Scenario, file: URL, settings: ScenarioRunner.Settings) throws {
        if let reason = CrashStateReductionCheck.notApplicable(parsed) {
            print("not applicable: \(reason)")
            throw ExitCode(3)
        }
        let progress = Progress(total: nil, label: "points")
        let started = Date()
        let recording = try CrashStateRun.record(parsed, file: file.path, settings: settings)
        defer { recording.remove() }
        let recorded = Date().timeIntervalSince(started)
        let result = try CrashStateReductionCheck.run(recording, maxPoints: maxPoints, seed: seed) { progress.update($0) }
        progress.finish()
        let directory = try RunDirectory.create(root: URL(cliPath: reports), prefix: "crash-states-reductions-")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try directory.write("crash-states-reductions.json", String(decoding: try encoder.encode(result), as: UTF8.self))
        print(String(format: "recorded in %.1f s; persistence points: %d, checked: %d (the end of the log included)",
                     recorded, result.full.persistencePoints, result.full.pointsChecked))
        for (name, summary) in [("reduced", result.reduced), ("full", result.full)] {
            print("\(name): " + String(format: "%d states, %d examined, skipped %d same operations + %d same pages, %d failed; %.1f s, %.1f states/s, %.1f CPU s",
                         summary.statesChecked, summary.statesExamined, summary.statesSameOperations, summary.statesSameContent,
                         summary.statesFailed, summary.seconds, summary.statesPerSecond, summary.cpuSeconds))
        }
        print("findings: full \(result.fullFindings.count), reduced \(result.reducedFindings.count); lost \(result.lost.count), added \(result.added.count); states whose verdict differs: \(result.statesDiffering)")
        for finding in result.fullFindings { print("  finding: \(finding)") }
        for finding in result.lost { print("  LOST by the reductions: \(finding)") }
        for finding in result.added { print("  ADDED by the reductions: \(finding)") }
        for difference in result.firstDifferences { print("  differs: \(difference)") }
        if result.statesMismatched { print("  the two enumerations did not visit the same states") }
        print(result.same ? "same findings: yes" : "same findings: NO")
        print("report: \(directory.url.path)/crash-states-reductions.json")
        if !result.same { throw ExitCode(1) }
    }
}
