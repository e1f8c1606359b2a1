import ArgumentParser
import Foundation
import Workload

/// `lifeboat store-op --config FILE`: one checkpoint, vacuum or bulk delete of a run, from a connection of its own
/// (started by the runner, not by hand). Prints the result as one JSON line.
struct StoreOperationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "store-op", abstract: "Run one store operation (used by `lifeboat run`).",
                                                    shouldDisplay: false)
    @Option(help: "The operation's configuration (JSON written by the runner).") var config: String

    func run() throws {
        let configuration = try ChildConfig.read(StoreOperation.Configuration.self, from: config, what: "store operation")
        let result = try StoreOperation(configuration).run()
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        print(String(decoding: try encoder.encode(result), as: UTF8.self))
    }
}
