import ChildProcesses
import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Reporting
import Runner
import Testing

/// A program that is not installed, misspelled or not executable never ran, so it is an environment error
/// (exit 2 for one run, "not run" with the reason in campaigns, the matrix and walks), never a finding: no
/// verdict of such a run is "violated". Real runs, real shells, real recipe folders.
@Suite struct EnvironmentErrorTests {
    /// An idle store, one `command` backup with `command` as given; `extra` appended (sidecars).
    static func scenario(_ name: String, command: String, extra: String = "", writers: String = "{count: 0}") -> String {
        """
        name: \(name)
        store: {objects: 30, blob_fraction: 0}
        writers: \(writers)
        schedule:
          - backup: command
            command: \(command)
        time_limit: 60
        expect: pass
        \(extra)
        """
    }

    static func latestReport(_ reports: URL) throws -> RunResult {
        let run = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        return try JSONDecoder().decode(RunResult.self, from: Data(contentsOf: run.appendingPathComponent("report.json")))
    }

    static func runAlone(_ text: String, in scratch: Scratch, files: [String: (String, Int)] = [:]) async throws -> (Int32, RunResult) {
        for (name, (content, mode)) in files {
            let url = scratch.path(name)
            try content.write(to: url, atomically: true, encoding: .utf8)
            chmod(url.path, mode_t(mode))
        }
        let file = scratch.path("scenario.yaml")
        try text.write(to: file, atomically: true, encoding: .utf8)
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["run", file.path, "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        return (code, try latestReport(reports))
    }

    @Test func aMisspelledProgramIsExitTwoAndNoFinding() async throws {
        let scratch = try Scratch("env-misspelled")
        let (code, result) = try await Self.runAlone(Self.scenario("env-misspelled", command: "cpp-no-such-program -a \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR\""), in: scratch)
        #expect(code == 2)
        let reason = try #require(result.environmentError)
        #expect(reason.contains("cpp-no-such-program is not found on PATH") && reason.contains("correct its name"), "\(reason)")
        #expect(!result.verdicts.contains { $0.status == .violated }, "\(result.verdicts)")
        #expect(result.operations.isEmpty, "the preflight stops the run before any step: \(result.operations.map(\.name))")
    }

    @Test func aScriptThatIsNotExecutableIsExitTwoWithTheFix() async throws {
        let scratch = try Scratch("env-noexec")
        let script = "#!/bin/sh\ncp \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR/\"\n"
        let (code, result) = try await Self.runAlone(Self.scenario("env-noexec", command: "\"$LIFEBOAT_SCENARIO_DIR/backup.sh\""), in: scratch,
                                                     files: ["backup.sh": (script, 0o644)])
        #expect(code == 2)
        let reason = try #require(result.environmentError)
        #expect(reason.contains("is not executable") && reason.contains("chmod +x"), "\(reason)")
        #expect(!result.verdicts.contains { $0.status == .violated })
    }

    /// Past the preflight (the shell computes what runs): the shell's 127 and 126 at run time, in a step and in a
    /// sidecar, are environment errors too, never `backup-completes`.
    @Test func theShellsNotFoundAndNotExecutableAtRunTimeAreNotFindings() async throws {
        let scratch = try Scratch("env-runtime")
        let (code, result) = try await Self.runAlone(Self.scenario("env-127", command: "sh -c 'no-such-backup-tool-xyz \"$LIFEBOAT_STORE\"'"), in: scratch)
        #expect(code == 2)
        #expect(result.environmentError?.contains("shell status 127") == true, "\(result.environmentError ?? "nil") \(result.errors)")
        #expect(!result.verdicts.contains { $0.status == .violated }, "\(result.verdicts.filter { $0.status == .violated })")
        #expect(result.verdicts.first { $0.invariant == "backup-completes" }?.status == .notApplicable)

        let scratch126 = try Scratch("env-126")
        let (code126, result126) = try await Self.runAlone(Self.scenario("env-126", command: "sh -c \"$LIFEBOAT_SCENARIO_DIR/backup.sh\""), in: scratch126,
                                                           files: ["backup.sh": ("#!/bin/sh\nexit 0\n", 0o644)])
        #expect(code126 == 2)
        #expect(result126.environmentError?.contains("chmod +x") == true, "\(result126.environmentError ?? "nil")")
        #expect(!result126.verdicts.contains { $0.status == .violated })

        let scratchSidecar = try Scratch("env-sidecar")
        let sidecar = """
            sidecars:
              - {name: replicator, command: "sh -c 'no-such-replicator-xyz replicate'", start: with_writers, stop: after_writers}
            """
        let (codeSidecar, resultSidecar) = try await Self.runAlone(
            Self.scenario("env-sidecar", command: "cp \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR/\"", extra: sidecar,
                          writers: "{count: 1, transactions: 60, rate: 40, blob_fraction: 0}"), in: scratchSidecar)
        #expect(codeSidecar == 2)
        #expect(resultSidecar.environmentError?.contains("sidecar replicator") == true, "\(resultSidecar.environmentError ?? "nil")")
        #expect(!resultSidecar.verdicts.contains { $0.status == .violated })
    }

    /// In a campaign the pair is "not run" with the reason (exit 3), counted apart from what ran.
    @Test func aCampaignCountsTheRunAsNotRun() async throws {
        let scratch = try Scratch("env-campaign")
        let file = scratch.path("env-campaign.yaml")
        try Self.scenario("env-campaign", command: "sh -c 'no-such-backup-tool-xyz'").write(to: file, atomically: true, encoding: .utf8)
        let reports = scratch.path("reports")
        let code = await LifeboatMain.run(["run", file.path, "--seeds", "1", "--reports", reports.path, "--scratch", scratch.path("scratch").path])
        #expect(code == 3)
        let (_, summary) = try CampaignCommandTests.suite(reports)
        let entry = try #require(summary.entries.first)
        #expect(entry.status == .notRun && entry.reason?.contains("environment error") == true, "\(entry)")
        #expect(!entry.verdicts.contains { $0.status == .violated })
        #expect(summary.withTallies().outcome.notRun == 1 && summary.withTallies().outcome.unexpected == 0)
    }

    /// A recipe whose tool is missing: `version.sh` fails, its cells are "not run" with the fix, nothing of it
    /// runs, and the matrix exits 2; a recipe whose backup meets the shell's 127 while running exits 3.
    @Test func aMatrixRecipeWithoutItsToolIsNotRun() async throws {
        let scratch = try Scratch("env-matrix")
        let root = scratch.path("recipes")
        let recipe = root.appendingPathComponent("ghost")
        try FileManager.default.createDirectory(at: recipe, withIntermediateDirectories: true)
        let lib = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Scenarios/tools/_lib.sh").standardizedFileURL
        try FileManager.default.copyItem(at: lib, to: root.appendingPathComponent("_lib.sh"))
        let files = [
            "ghost/idle.yaml": Self.scenario("ghost-idle", command: "sh \"$LIFEBOAT_SCENARIO_DIR/backup.sh\""),
            "ghost/backup.sh": ". \"$(dirname \"$0\")/../_lib.sh\"\nghost-backup-tool-xyz \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR\"\n",
            "ghost/version.sh": ". \"$(dirname \"$0\")/../_lib.sh\"\nneed ghost-backup-tool-xyz\necho \"ghost $(ghost-backup-tool-xyz --version)\"\n",
        ]
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        let reports = scratch.path("reports")
        let arguments = ["matrix", root.path, "--seeds", "1,2", "--reports", reports.path, "--scratch", scratch.path("scratch").path]
        #expect(await LifeboatMain.run(arguments) == 2)
        let latest = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        let result = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: latest.appendingPathComponent("matrix.json")))
        let cell = try #require(result.cells.first)
        #expect(cell.isNotRun && !cell.caught && cell.runs.count == 2)
        #expect(cell.runs.allSatisfy { $0.notRun?.contains("run scripts/setup.sh") == true && $0.runID.isEmpty }, "\(cell.runs)")
        #expect(result.tools.first?.version == "not installed")
        let markdown = try String(contentsOf: latest.appendingPathComponent("matrix.md"), encoding: .utf8)
        #expect(markdown.contains("| ghost | not run 2/2 |") && markdown.contains("## Not run"), "\(markdown)")
        #expect(!markdown.contains("**caught ") && !markdown.contains("## Findings\n\n###"))

        // The tool's version check passes, but the backup still meets the shell's 127: not run, exit 3.
        try ". \"$(dirname \"$0\")/../_lib.sh\"\necho ghost 1.0\n".write(to: recipe.appendingPathComponent("version.sh"), atomically: true, encoding: .utf8)
        #expect(await LifeboatMain.run(arguments) == 3)
        let again = reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
        let second = try JSONDecoder().decode(ToolMatrix.Result.self, from: Data(contentsOf: again.appendingPathComponent("matrix.json")))
        let runs = try #require(second.cells.first?.runs)
        #expect(runs.allSatisfy { $0.notRun?.contains("shell status 127") == true && $0.violated.isEmpty && $0.repro == nil }, "\(runs)")
    }

    /// In a walk the N whose run could not start its program is "not run" (exit 3), and the walk stops there.
    @Test func aWalkStopsWithTheRowNotRun() async throws {
        let scratch = try Scratch("env-walk")
        let file = scratch.path("walk.yaml")
        try Self.scenario("env-walk", command: "sh -c 'no-such-backup-tool-xyz'", writers: "{count: 1, transactions: 3, blob_fraction: 0, checkpoint: none}")
            .replacingOccurrences(of: "expect: pass", with: "scheduler: turns\nexpect: pass")
            .write(to: file, atomically: true, encoding: .utf8)
        let directory = scratch.path("walk")
        #expect(await LifeboatMain.run(["walk", file.path, "--ops", "fsync", "--path", "*.sqlite-wal", "--max", "3", "--directory", directory.path,
                                        "--reports", scratch.path("r").path, "--scratch", scratch.path("s").path]) == 3)
        let markdown = try String(contentsOf: directory.appendingPathComponent("walk.md"), encoding: .utf8)
        #expect(markdown.contains("| not run |") && markdown.contains("environment error") && markdown.contains("(1 not run)"), "\(markdown)")
        #expect(markdown.contains("0 failing N(s)"))
    }

    @Test func preflightReadsTheCommandLineAsTheShellWould() throws {
        let scratch = try Scratch("env-preflight")
        let script = scratch.path("run.sh")
        try "#!/bin/sh\n".write(to: script, atomically: true, encoding: .utf8)
        chmod(script.path, 0o644)
        let environment = ["LIFEBOAT_SCENARIO_DIR": scratch.url.path]
        #expect(EnvironmentFailure.preflight(command: "cp -a a b") == nil)
        #expect(EnvironmentFailure.preflight(command: "sh \"$LIFEBOAT_SCENARIO_DIR/run.sh\"", environment: environment) == nil)
        #expect(EnvironmentFailure.preflight(command: "sh \"${LIFEBOAT_SCENARIO_DIR}/missing.sh\"", environment: environment)?.contains("does not exist") == true)
        #expect(EnvironmentFailure.preflight(command: "$LIFEBOAT_SCENARIO_DIR/run.sh --flag", environment: environment)?.contains("chmod +x") == true)
        #expect(EnvironmentFailure.preflight(command: "no-such-tool-xyz; echo hi")?.contains("not found on PATH") == true)
        // What the shell computes is left to the run: builtins, assignments, unknown variables, substitutions.
        for command in ["cd /tmp && no-such-tool-xyz", "X=1 no-such-tool-xyz", "$UNSET_VARIABLE_XYZ/run", "$(echo no-such-tool-xyz)"] {
            #expect(EnvironmentFailure.preflight(command: command) == nil, "\(command)")
        }
        #expect(EnvironmentFailure.reason(exitCode: 127, signal: nil, output: "sh: 1: bakup: not found\n")?.contains("bakup: not found") == true)
        #expect(EnvironmentFailure.reason(exitCode: 1, signal: nil, output: "") == nil)
        #expect(EnvironmentFailure.reason(exitCode: 127, signal: 9, output: "") == nil)
    }

    /// An interpreter's script is its first argument that is not an option, whatever the interpreter: missing,
    /// it is "not run" before anything runs; `-c`, `-m`, `-e` and `-` mean no script file.
    @Test func anInterpretersMissingScriptIsFoundPastItsOptions() throws {
        let scratch = try Scratch("env-interpreters")
        for command in ["sh missing.sh", "bash -x missing.sh", "python3 missing.py", "python3 -u missing.py", "python3 -W ignore missing.py",
                        "python missing.py", "perl -w missing.pl", "python3.11 missing.py", "/bin/sh missing.sh", "sh -- missing.sh", "sh -e missing.sh"] {
            let reason = EnvironmentFailure.preflight(command: command, directory: scratch.url.path)
            #expect(reason?.contains("\(scratch.url.path)/missing.") == true && reason?.contains("does not exist or cannot be read") == true,
                    "\(command): \(reason ?? "nil")")
        }
        for command in ["sh -c 'missing.sh'", "python3 -m missing", "perl -e 'print 1'", "python3 - < missing.py", "sh -s missing"] {
            #expect(EnvironmentFailure.preflight(command: command, directory: scratch.url.path) == nil, "\(command)")
        }
        // The word that names the file run, as written, and where it stands (what `try` replaces with its copy).
        for (command, word) in [("sh my-backup.sh", "my-backup.sh"), ("python3 -u 'my backup.py' --fast", "'my backup.py'"),
                                ("./backup.sh --all", "./backup.sh"), ("tools/b.sh", "tools/b.sh")] {
            let found = try #require(EnvironmentFailure.scriptWord(of: command), "\(command)")
            #expect(String(command[found.range]) == word, "\(command)")
        }
        #expect(EnvironmentFailure.scriptWord(of: "python3 -u 'my backup.py'")?.text == "my backup.py")
        for command in ["rsync -a a b", "sh \"$LIFEBOAT_SCENARIO_DIR/b.sh\"", "python3 -m backup", "cd dir && sh b.sh"] {
            #expect(EnvironmentFailure.scriptWord(of: command) == nil, "\(command)")
        }
        // After the fact, for a script no command line shows (inside a wrapper): the interpreter's own words, status 2.
        #expect(EnvironmentFailure.reason(exitCode: 2, signal: nil, output: "sh: 0: cannot open my-backup.sh: No such file\n")?
            .contains("could not open its script") == true)
        #expect(EnvironmentFailure.reason(exitCode: 2, signal: nil, output: "/usr/bin/python3: can't open file '/w/b.py': [Errno 2] No such file or directory\n") != nil)
        #expect(EnvironmentFailure.reason(exitCode: 2, signal: nil, output: "Can't open perl script \"b.pl\": No such file or directory\n") != nil)
        #expect(EnvironmentFailure.reason(exitCode: 2, signal: nil, output: "rsync error: some files could not be transferred\n") == nil)
        // A redirection inside the program that fails is the program's own failure (its line number, not 0).
        #expect(EnvironmentFailure.reason(exitCode: 2, signal: nil, output: "/w/backup.sh: 3: cannot open /w/in.txt: No such file\n") == nil)
        #expect(EnvironmentFailure.reason(exitCode: 2, signal: nil, output: "sh: 1: cannot open /w/in.txt: No such file\n") == nil)
        #expect(EnvironmentFailure.reason(exitCode: 1, signal: nil, output: "sh: 0: cannot open my-backup.sh: No such file\n") == nil)
    }

    /// A wrapper script whose inner `sh FILE` names a missing file (what no preflight can see): the run is "not
    /// run" with exit 2 from the shell's own message, never `backup-completes`.
    @Test func aMissingScriptInsideAWrapperIsExitTwo() async throws {
        let scratch = try Scratch("env-wrapper")
        let wrapper = "#!/bin/sh\nsh \"$LIFEBOAT_SCENARIO_DIR/not-there.sh\"\n"
        let (code, result) = try await Self.runAlone(Self.scenario("env-wrapper", command: "sh \"$LIFEBOAT_SCENARIO_DIR/wrapper.sh\""), in: scratch,
                                                     files: ["wrapper.sh": (wrapper, 0o644)])
        #expect(code == 2)
        #expect(result.environmentError?.contains("cannot open") == true, "\(result.environmentError ?? "nil")")
        #expect(!result.verdicts.contains { $0.status == .violated }, "\(result.verdicts)")
    }
}
