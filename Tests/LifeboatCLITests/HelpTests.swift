import ArgumentParser
import Foundation
@testable import LifeboatCLI
import Runner
import Testing

/// What a person sees in `--help` and `--version` (user trial F14): the runner's own flags are accepted but
/// not shown, `lifeboat faultfs --help` has the same shape as every other command, and the strategy list speaks
/// without internal names.
struct HelpTests {
    static let runnerFlags = ["--hold-at-page", "--hold-marker", "--gate-fifo", "--gate-progress", "--json"]

    @Test func runnerOnlyFlagsAreHiddenFromHelpButStillAccepted() throws {
        for command in [BackupCommand.self, RestoreCommand.self, RelocateCommand.self] as [any ParsableCommand.Type] {
            let help = Lifeboat.helpMessage(for: command, columns: 200)
            for flag in Self.runnerFlags { #expect(!help.contains(flag), "\(command) help shows \(flag)") }
            #expect(help.contains("--pages-per-step"), "user options stay in the help")
        }
        let parsed = try Lifeboat.parseAsRoot(["backup", "--strategy", "backup-api", "--hold-at-page", "3", "--hold-marker", "/tmp/m",
                                               "--gate-fifo", "/tmp/f", "--gate-progress", "/tmp/p", "--json", "/tmp/a.sqlite", "/tmp/b"])
        let backup = try #require(parsed as? BackupCommand)
        #expect(backup.arguments.holdAtPage == 3 && backup.arguments.gateFIFO == "/tmp/f" && backup.arguments.json)
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
            .filter { $0.hasPrefix("--") || ["ping", "rules", "coverage", "sync-all", "clear", "shutdown", "disarm", "crash", "log-mark", "arm", "raw"].contains(String($0)) }
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
