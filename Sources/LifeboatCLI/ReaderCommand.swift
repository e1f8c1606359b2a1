import ArgumentParser
import Checks
import Foundation
import Strategies

/// `lifeboat reader --config FILE`: one reader process of a run (started by the runner, not by hand).
struct ReaderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "reader", abstract: "Run one reader process (used by `lifeboat run`).",
                                                    shouldDisplay: false)
    @Option(help: "The reader's configuration (JSON written by the runner).") var config: String

    func run() throws {
        let configuration = try ChildConfig.read(Reader.Configuration.self, from: config, what: "reader")
        let taken: Int
        do {
            taken = try Reader(configuration).run()
        } catch where configuration.onRunStartStore == true {
            // Nothing of the program under test has run yet: the harness could not read the store it made or
            // was given. The runner reads this line and calls the run an environment (harness) error, exit 2.
            let reason = "harness error: reader-\(configuration.index) could not read the store the run began with (\(configuration.store)): \(error)"
            if let line = try? JSONEncoder().encode(EnvironmentFailureLine(environmentError: reason)) { print(String(decoding: line, as: UTF8.self)) }
            throw ExitCode(2)
        }
        print("reader \(configuration.index): \(taken) snapshot(s)")
    }
}
