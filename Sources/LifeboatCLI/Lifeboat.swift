import ArgumentParser

/// The `lifeboat` command tree.
public struct Lifeboat: AsyncParsableCommand {
    public static let configuration = CommandConfiguration(commandName: "lifeboat", abstract: "Backup and restore test harness for Core Data-format SQLite stores.")
    public init() {}
}
