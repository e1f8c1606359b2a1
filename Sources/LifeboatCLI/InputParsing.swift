import ArgumentParser
import Foundation
import Runner
import Scenario
import StoreModel

/// A byte size written as 200MB, 64KiB, 1.5G or a plain number of bytes.
struct ByteSize: ExpressibleByArgument, Sendable, CustomStringConvertible {
    var bytes: Int

    init(bytes: Int) { self.bytes = bytes }

    init?(argument: String) {
        guard let value = Self.parse(argument) else { return nil }
        bytes = value
    }

    static func parse(_ text: String) -> Int? { ByteSizeText.parse(text) }

    var description: String { "\(bytes) bytes" }
    static var defaultCompletionKind: CompletionKind { .default }
}

extension URL {
    /// A file URL from a command-line path, relative to the working directory.
    init(cliPath: String) {
        self = URL(fileURLWithPath: cliPath).standardizedFileURL
    }
}

extension MigrateOptions.ExistingDestination: ExpressibleByArgument {}
extension StoreOptions.JournalMode: ExpressibleByArgument {}

/// `--jobs N|cores`, for the commands that run many scenarios (`RunLoop`).
protocol RunsManyAtATime {
    var jobs: String { get }
}

extension RunsManyAtATime {
    func jobCount() throws -> Int {
        switch JobCount.parse(jobs) {
        case .success(let n): return n
        case .failure(let error): throw CLIFailure.badInput(error.message)
        }
    }
}

/// `--shard K/N`, for the commands whose runs can be cut into slices (`Shard`, `RunLoop.slice`) and merged back
/// (`lifeboat report merge`).
protocol RunsInShards {
    var shard: String? { get }
}

extension RunsInShards {
    func shardValue() throws -> Shard? {
        guard let shard else { return nil }
        do { return try Shard(shard) } catch let error as SeedList.ParseError { throw CLIFailure.badInput(error.message) }
    }
}

extension TryCommand: RunsInShards {}
extension MatrixCommand: RunsInShards {}
extension WalkCommand: RunsInShards {}

extension TryCommand: RunsManyAtATime {}
extension MatrixCommand: RunsManyAtATime {}
extension RunCommand: RunsManyAtATime {}
extension WalkCommand: RunsManyAtATime {}
