import ArgumentParser

/// docs/cli.md: every visible command's own `--help`, at a fixed width, so the reference is the help and cannot
/// drift from it. `lifeboat cli-reference > docs/cli.md` (scripts/gen-cli-doc.sh) writes it; CLIReferenceTests
/// fails when the file is stale.
public enum CLIReference {
    public static func markdown() -> String {
        var lines = [
            "# Command-line reference", "",
            "Generated from the commands' own `--help` by `scripts/gen-cli-doc.sh`; do not edit (a test fails when it is stale).",
            "Exit codes everywhere: 0 as expected, 1 an unexpected violation (a finding), 2 bad input or environment",
            "(a program that could not start included), 3 incomplete (campaigns, the matrix and walks: runs skipped or not run).", "",
        ]
        // Every visible command, and the visible subcommands of those that have them (`report merge`).
        var commands: [(name: String, type: any ParsableCommand.Type)] = []
        for command in Lifeboat.configuration.subcommands where command.configuration.shouldDisplay {
            let name = command.configuration.commandName ?? ""
            commands.append((name, command))
            for sub in command.configuration.subcommands where sub.configuration.shouldDisplay {
                commands.append(("\(name) \(sub.configuration.commandName ?? "")", sub))
            }
        }
        lines.append(contentsOf: commands.map { "- [`lifeboat \($0.name)`](#lifeboat-\($0.name.replacingOccurrences(of: " ", with: "-")))" })
        lines.append("")
        for (name, command) in commands {
            lines += ["## lifeboat \(name)", "", "```text", Lifeboat.helpMessage(for: command, columns: 110).trimmingCharacters(in: .newlines), "```", ""]
        }
        return lines.joined(separator: "\n")
    }
}

/// `lifeboat cli-reference`: prints docs/cli.md (hidden; for scripts/gen-cli-doc.sh).
struct CLIReferenceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "cli-reference", abstract: "Print the command-line reference (docs/cli.md).",
                                                    shouldDisplay: false)
    func run() throws { print(CLIReference.markdown(), terminator: "") }
}
