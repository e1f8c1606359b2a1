import ArgumentParser
import ChildProcesses
import Foundation
import Reporting
import Runner

/// `--sarif FILE` and `--github`, shared by `try`, `run` and `matrix`: where CI users already look.
struct CIOutputOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Also write the findings as SARIF 2.1.0 here, for GitHub code scanning (one result per finding, worst first; stable fingerprints).",
                               valueName: "file"))
    var sarif: String?
    @Flag(help: "Print GitHub Actions annotations (at most 10, worst first) and write the step summary ($GITHUB_STEP_SUMMARY); on by itself when GITHUB_ACTIONS=true.")
    var github = false
}

/// Writes a command's findings as SARIF and as GitHub Actions output (`SARIFReport`, `GitHubActionsReport`: the
/// pure renderers), after the command's own reports and before its exit code.
enum CIOutput {
    struct Context {
        /// The command as typed, the category of its SARIF run ("lifeboat-try") and the folder of its reports.
        var command: String
        var category: String
        var reports: URL
        var workingDirectory = URL(fileURLWithPath: FileManager.default.currentDirectoryPath)
    }

    static func emit(_ findings: [CIFinding], verdicts: [String], context: Context, options: CIOutputOptions,
                     environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        if let sarif = options.sarif {
            let text = SARIFReport.render(findings, invocation: SARIFReport.Invocation(
                command: context.command, workingDirectory: context.workingDirectory.standardizedFileURL.path,
                version: Campaign.lifeboatVersion, category: context.category))
            let url = URL(cliPath: sarif)
            do {
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: url)
            } catch {
                throw CLIFailure.badInput("--sarif \(sarif): cannot write it: \(error.localizedDescription)")
            }
            print("sarif: \(sarif) (\(findings.count) result(s))")
        }
        guard options.github || environment["GITHUB_ACTIONS"] == "true" else { return }
        let output = GitHubActionsReport.render(findings, title: context.command, verdicts: verdicts,
                                                artifact: artifact(context, environment: environment))
        for annotation in output.annotations { print(annotation) }
        if let path = environment["GITHUB_STEP_SUMMARY"], !path.isEmpty {
            do {
                let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
                defer { try? handle.close() }
                try handle.seekToEnd()
                try handle.write(contentsOf: Data(output.summary.utf8))
            } catch {
                throw CLIFailure.badInput("GITHUB_STEP_SUMMARY \(path): cannot append the step summary: \(error.localizedDescription)")
            }
        } else {
            print("github: GITHUB_STEP_SUMMARY is not set; the step summary (\(findings.count) finding(s)) is not written")
        }
        fflush(nil)
    }

    /// Where the whole report is: the reports folder (relative to the working folder), and on GitHub the run's page,
    /// which lists the job's artifacts.
    static func artifact(_ context: Context, environment: [String: String]) -> String {
        var text = shown(context.reports.path, from: context.workingDirectory)
        if let server = environment["GITHUB_SERVER_URL"], let repository = environment["GITHUB_REPOSITORY"], let run = environment["GITHUB_RUN_ID"] {
            text += " (in the artifacts of \(server)/\(repository)/actions/runs/\(run))"
        }
        return text
    }

    /// `path` relative to `base` where it lies under it.
    static func shown(_ path: String, from base: URL) -> String {
        let root = base.standardizedFileURL.path
        let standard = URL(fileURLWithPath: path).standardizedFileURL.path
        guard standard.hasPrefix(root + "/") else { return standard }
        return String(standard.dropFirst(root.count + 1))
    }

    /// The file a command line runs (`sh my-backup.sh`, `sh "$LIFEBOAT_SCENARIO_DIR/backup.sh"`), shown from the
    /// working folder; nil when it names none, or one that is not there.
    static func programFile(_ command: String, scenarioDirectory: URL?, workingDirectory: URL) -> String? {
        var command = command
        if let scenarioDirectory {
            command = command.replacingOccurrences(of: "${LIFEBOAT_SCENARIO_DIR}", with: scenarioDirectory.path)
                .replacingOccurrences(of: "$LIFEBOAT_SCENARIO_DIR", with: scenarioDirectory.path)
        }
        guard let word = EnvironmentFailure.scriptWord(of: command)?.text else { return nil }
        let path = word.hasPrefix("/") ? word : (workingDirectory.path as NSString).appendingPathComponent(word)
        guard FileManager.default.fileExists(atPath: path) else { return nil }
        return shown(path, from: workingDirectory)
    }

    /// Which program a finding of `invariant` blames: the restore program for the restore's invariants (or a
    /// cause that names a restore step), the backup program otherwise.
    static func blamesRestore(_ invariant: String, cause: String?) -> Bool {
        invariant.hasPrefix("restore-") || cause?.contains(" by restore-") == true
    }
}
