import ArgumentParser
import Checks
import Foundation

/// `lifeboat reader --config FILE`: one reader process of a run (started by the runner, not by hand).
struct ReaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reader", abstract: "Run one reader process (used by `lifeboat run`).",
                                                    shouldDisplay: false)
    @Option(help: "The reader's configuration (JSON written by the runner).") var config: String

    func run() throws {
        let data: Data
        do { data = try Data(contentsOf: URL(cliPath: config)) } catch { throw CLIFailure.badInput("cannot read \(config): \(error)") }
        let configuration: Reader.Configuration
        do { configuration = try JSONDecoder().decode(Reader.Configuration.self, from: data) } catch {
            throw CLIFailure.badInput("\(config) is not a reader configuration: \(error)")
        }
        let taken = try Reader(configuration).run()
        print("reader \(configuration.index): \(taken) snapshot(s)")
    }
}
