import Foundation
import Scenario
import Testing

/// `store.auto_vacuum` (docs/fidelity.md, "Core Data's SQLite settings"): reads, renders back, and is refused
/// with `free_space` at its line and column.
@Suite struct AutoVacuumKeyTests {
    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: "name: x\nstore: {objects: 20, auto_vacuum: incremental}\n")
        #expect(parsed.store.autoVacuum == "incremental")
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
        #expect(try ScenarioParser.parse(yaml: "name: x\n").store.autoVacuum == "none")
    }

    @Test(arguments: [
        ("name: x\nstore: {auto_vacuum: full}\n", 2, 22, "auto_vacuum must be one of none, incremental"),
        ("name: x\nstore: {auto_vacuum: incremental, free_space: 1MiB}\n", 2, 22, "does not go with free_space"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
