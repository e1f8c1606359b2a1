import Foundation
import Scenario
import Testing

/// `action: hold` with `while_held` (docs/scenario-file.md, "faults"): the call waits while the app commits and
/// checkpoints, under the turns scheduler; reads, renders back, and bad input is refused at its line and column.
@Suite struct HoldRuleKeysTests {
    static let valid = """
        name: x
        scheduler: turns
        faults:
          rules:
            - ops: [open]
              path: "/Library.sqlite*"
              nth: 5
              actor: backup-0
              action: hold
              while_held: [commit 4, checkpoint truncate, commit 1]
        """

    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: Self.valid)
        #expect(parsed.faults.rules.first?.action == .hold(60_000))
        #expect(parsed.faults.rules.first?.whileHeld == [.commit(4), .checkpoint(.truncate), .commit(1)])
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test(arguments: [
        ("name: x\nscheduler: turns\nfaults:\n  rules:\n    - action: hold\n", 5, 15, "action hold and while_held go together"),
        ("name: x\nscheduler: turns\nfaults:\n  rules:\n    - action: errno EIO\n      while_held: [commit 1]\n", 6, 19, "action hold and while_held go together"),
        ("name: x\nscheduler: turns\nfaults:\n  rules:\n    - action: hold\n      while_held: [commit 0]\n", 6, 20, "while_held items are `commit N` (1-1000)"),
        ("name: x\nscheduler: turns\nfaults:\n  rules:\n    - action: hold\n      while_held: [vacuum]\n", 6, 20, "not 'vacuum'"),
        ("name: x\nfaults:\n  rules:\n    - action: hold\n      while_held: [commit 1]\n", 4, 15, "action hold needs scheduler: turns"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
