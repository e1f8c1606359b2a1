import ArgumentParser
import FaultFS
import Foundation
@testable import LifeboatCLI
import Runner
import Testing

/// What a person sees in `--help` and `--version` (user trial F14): the engine's own handshakes with its
/// children are no flags of the commands a person types (they are in `lifeboat step --config`'s JSON), `lifeboat faultfs --help` has the same shape as every other command, and the strategy list speaks
/// without internal names.
struct HelpTests {
    static let runnerFlags = ["--hold-at-page", "--hold-marker", "--gate-fifo", "--gate-progress", "--json"]

    @Test func theEnginesHandshakesAreNoFlagsOfTheCommandsAPersonTypes() throws {
        for command in [BackupCommand.self, RestoreCommand.self, RelocateCommand.self] as [any ParsableCommand.Type] {
            let help = Lifeboat.helpMessage(for: command, columns: 200)
            for flag in Self.runnerFlags + ["--start-gate"] { #expect(!help.contains(flag), "\(command) help shows \(flag)") }
            #expect(help.contains("--pages-per-step"), "user options stay in the help")
        }
        for flag in Self.runnerFlags {
            #expect(throws: (any Error).self, "backup accepts \(flag)") {
                try Lifeboat.parseAsRoot(["backup", "--strategy", "backup-api", flag, "3", "/tmp/a.sqlite", "/tmp/b"])
            }
        }
        // The engine's child command is not listed for a person.
        #expect(!Lifeboat.helpMessage(for: Lifeboat.self, columns: 200).contains("\n  step "))
    }

    @Test func versionIsTheCampaignVersion() async throws {
        #expect(Lifeboat.versionText == "lifeboat \(Campaign.lifeboatVersion)")
        #expect(await LifeboatMain.run(["--version"]) == 0)
        #expect(Lifeboat.helpMessage(for: Lifeboat.self).contains("--version"))
        // Only the root command has it: a subcommand's help lists its own options.
        #expect(!Lifeboat.helpMessage(for: CheckCommand.self).contains("--version"))
    }

    @Test func faultfsHelpHasTheShapeOfEveryOtherCommand() async throws {
        let help = Lifeboat.helpMessage(for: FaultFSCommand.self, columns: 110)
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(help.contains("\nUSAGE: lifeboat faultfs <command> ...") || help.contains("\nUSAGE: lifeboat faultfs [<command> ...]"), "\(help)")
        #expect(help.contains("\nARGUMENTS:\n") && help.contains("\nCOMMANDS:\n"))
        #expect(help.contains("  lifeboat faultfs mount BACKING MOUNTPOINT") && !help.contains("\n  faultfs "), "\(help)")
        // Every line fits 80 columns (the help wraps longer ones mid-line), and nothing of FaultFS's own usage
        // (every option and verb) is left out.
        #expect(FaultFSCommand.commands.split(separator: "\n").allSatisfy { $0.count <= 80 })
        let words = FaultFSCommand.toolUsage.split(whereSeparator: { " \n[]|,".contains($0) })
            .filter { $0.hasPrefix("--") || (ControlVerb.allCases.map(\.rawValue) + ["raw"]).contains(String($0)) }
        for word in words { #expect(FaultFSCommand.commands.contains(word), "\(word) is missing from lifeboat faultfs --help") }
        #expect(await LifeboatMain.run(["faultfs", "--help"]) == 0)
        #expect(await LifeboatMain.run(["faultfs", "no-such-verb"]) == 2)
    }

    @Test func theStrategyListHasNoInternalJargon() {
        let listing = StrategiesCommand.listing()
        #expect(!listing.contains("seed 0"), "\(listing)")
        #expect(listing.contains("relocate-app-group"))
    }
}
