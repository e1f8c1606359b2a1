import Foundation

/// The one way a child command of a run (`writer`, `reader`, `store-op`, `step`) reads the JSON configuration
/// the engine wrote for it: a file that cannot be read, or is not such a configuration, is bad input (exit 2)
/// with the file named, never a crash.
enum ChildConfig {
    static func read<Configuration: Decodable>(_ type: Configuration.Type, from path: String, what: String) throws -> Configuration {
        let data: Data
        do { data = try Data(contentsOf: URL(cliPath: path)) } catch { throw CLIFailure.badInput("cannot read \(path): \(error)") }
        do { return try JSONDecoder().decode(type, from: data) } catch {
            throw CLIFailure.badInput("\(path) is not a \(what) configuration: \(error)")
        }
    }
}
