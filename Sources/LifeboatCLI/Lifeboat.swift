import ArgumentParser
import Runner

/// The `lifeboat` command tree. Commands stay thin: they parse, call a library, print and pick an exit code.
///
/// Exit codes: 0 every check held; 1 a check found a violation (the output says which, with evidence);
/// 2 bad input or environment (a clear message, with file:line:column where it applies).
public struct Lifeboat: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(
        commandName: "lifeboat",
        abstract: "Prove that backup and restore of a Core Data-format SQLite store are correct.",
        subcommands: [
            TryCommand.self, RunCommand.self, JudgeCommand.self, ReportCommand.self, ReplayCommand.self, ExploreCommand.self, WalkCommand.self, MatrixCommand.self, DoctorCommand.self, RestoreDrillCommand.self, CrashStatesCommand.self, DrillCommand.self, BenchCommand.self, FaultFSCommand.self,
            StrategiesCommand.self, GenerateCommand.self, CheckCommand.self,
            BackupCommand.self, RestoreCommand.self, RelocateCommand.self, CloudCommand.self, MirrorCommand.self, WriterCommand.self, ReaderCommand.self, StoreOperationCommand.self, StepCommand.self, MirrorStepCommand.self, BenchChildCommand.self, CLIReferenceCommand.self,
        ])

    /// `lifeboat --version`: the version suite pages and campaign fingerprints carry. A flag of the root command
    /// alone (ArgumentParser's `version:` would list it in every subcommand's help too).
    @Flag(help: "Show the version.") var version = false

    static var versionText: String { "lifeboat \(Campaign.lifeboatVersion)" }

    public init() {}

    public func run() async throws {
        guard version else { throw CleanExit.helpRequest(self) }
        print(Self.versionText)
    }
}
