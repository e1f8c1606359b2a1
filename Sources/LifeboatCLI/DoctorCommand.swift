import ArgumentParser
import Foundation

/// `lifeboat doctor [--json]`: checks this machine for what runs need (`Doctor`), each problem with the command
/// that fixes it. Exit 0 ready (warnings allowed), 2 a problem. `try` and `run` point here when the environment
/// fails.
struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check this machine for what Lifeboat needs: FUSE, the right to mount, SQLite, the recipes' tools, scratch space.",
        discussion: """
            Checks /dev/fuse (present and openable), fusermount3 on PATH, the right to mount (a trial FaultFS mount, \
            and whether CAP_SYS_ADMIN is held), the kernel and libfuse versions, the host's sqlite3 and Lifeboat's \
            own SQLite (whether they are in the WAL-reset bug's range, 3.7.0 through 3.51.2), the tool each recipe \
            of Scenarios/tools needs (its version.sh, as `lifeboat matrix` runs it) and the free space for scratch \
            stores. Each problem and warning comes with the command that fixes it. Exit 0 ready (warnings \
            allowed: a missing recipe tool leaves its matrix rows not run), 2 a problem (FaultFS cannot mount, or \
            no scratch space).
            """)

    @Flag(help: "Print the checks as JSON (lifeboat.doctor/1).") var json = false
    @Option(help: ArgumentHelp("Scratch directory to check (the one runs use; default the system's temporary directory).", valueName: "dir"))
    var scratch: String?
    @Option(help: ArgumentHelp("The recipes' folder whose tools to check (default Scenarios/tools, when it is here).", valueName: "dir"))
    var tools: String?

    func run() throws {
        var probes = Doctor.Probes()
        if let scratch { probes.scratch = URL(cliPath: scratch) }
        if let tools {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: URL(cliPath: tools).path, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw CLIFailure.badInput("--tools \(tools): no such folder")
            }
            probes.recipes = URL(cliPath: tools)
        } else {
            let here = URL(cliPath: "Scenarios/tools")
            probes.recipes = FileManager.default.fileExists(atPath: here.path) ? here : nil
        }
        let code = Self.report(Doctor.checks(probes), json: json)
        if code != 0 { throw ExitCode(code) }
    }

    /// Prints the checks (text or JSON) and returns the exit code.
    static func report(_ checks: [Doctor.Check], json: Bool) -> Int32 {
        let code = Doctor.exitCode(checks)
        if json {
            struct Report: Encodable {
                var schema = "lifeboat.doctor/1"
                var ready: Bool
                var checks: [Doctor.Check]
            }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            if let data = try? encoder.encode(Report(ready: code == 0, checks: checks)) { print(String(decoding: data, as: UTF8.self)) }
        } else {
            for line in Doctor.lines(checks) { print(line) }
        }
        return code
    }
}
