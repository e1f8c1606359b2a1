import Foundation
import Scenario
import Testing

/// The `damage:` entry (docs/events.md): both spellings read, render back to the same scenario, and every mistake
/// is refused at its line and column.
@Suite struct DamageKeysTests {
    static let scenario = """
        name: damaged
        schedule:
          - backup: command
            command: 'true'
          - damage: {target: backup 0, kind: bit-flip, where: wal}
            after_step: 0
          - damage: drop-attachment
            target: live
            after_commits: 10
          - restore: command
            command: 'true'
            after_step: 1
        """

    @Test func readsBothSpellingsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: Self.scenario)
        #expect(parsed.schedule.map(\.action.rawValue) == ["backup", "damage", "damage", "restore"])
        #expect(parsed.schedule[1].strategy == "bit-flip" && parsed.schedule[1].damage == Scenario.Damage(target: .backup(0), place: .wal))
        #expect(parsed.schedule[2].strategy == "drop-attachment" && parsed.schedule[2].damage == Scenario.Damage(target: .live))
        #expect(parsed.schedule[1].afterStep == 0 && parsed.schedule[2].afterCommits == 10)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func whereDefaultsToTheDatabase() throws {
        let parsed = try ScenarioParser.parse(yaml: "name: x\nschedule:\n  - damage: {target: live, kind: zero-page}\n")
        #expect(parsed.schedule[0].damage?.place == .main)
    }

    @Test(arguments: [
        ("name: x\nschedule:\n  - damage: {target: live, kind: melt}\n", 3, 34, "kind must be one of bit-flip"),
        ("name: x\nschedule:\n  - damage: {kind: truncate}\n", 3, 5, "needs `target: backup N`"),
        ("name: x\nschedule:\n  - damage: {target: backup, kind: truncate}\n", 3, 13, "must be `backup N`"),
        ("name: x\nschedule:\n  - damage: {target: live, kind: drop-wal, where: wal}\n", 3, 13, "`where` is for"),
        ("name: x\nschedule:\n  - damage: {target: live}\n", 3, 5, "needs `kind:"),
        ("name: x\nschedule:\n  - damage: {target: live, kind: truncate}\n    target: live\n", 4, 13, "gives `target` twice"),
        ("name: x\nschedule:\n  - checkpoint: full\n  - damage: {target: backup 0, kind: truncate}\n    after_step: 0\n", 4, 13, "is not a backup entry"),
        ("name: x\nschedule:\n  - backup: replace\n  - damage: {target: backup 0, kind: truncate}\n", 4, 13, "needs `after_step: 0`"),
    ])
    func mistakesAreRefusedWhereTheyAre(_ yaml: String, _ line: Int, _ column: Int, _ message: String) {
        expectScenarioError(yaml, line: line, column: column, message: message)
    }
}
