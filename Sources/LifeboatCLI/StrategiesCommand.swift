import ArgumentParser
import Strategies

/// `lifeboat strategies`: every backup, restore and relocation strategy, one line each.
struct StrategiesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "strategies", abstract: "List every backup, restore and relocation strategy.")

    func run() throws {
        print(Self.listing())
    }

    static func listing() -> String {
        func section(_ title: String, _ rows: [(String, String)]) -> String {
            let width = rows.map(\.0.count).max() ?? 0
            return ([title] + rows.map { "  " + $0.0.padding(toLength: width, withPad: " ", startingAt: 0) + "  " + $0.1 })
                .joined(separator: "\n")
        }
        return [
            section("backup:", StrategyCatalog.backups.map { ($0.name, $0.summary) }),
            section("restore:", StrategyCatalog.restores.map { ($0.name, $0.summary) }),
            section("relocation:", StrategyCatalog.relocations.map { ($0.name, $0.summary) }),
        ].joined(separator: "\n\n")
    }
}
