import Foundation
import Scenario
import Testing

/// A fault rule at close(2) is written `ops: [flush]` (FaultFS's name for it, docs/faultfs.md "Close"): read and
/// rendered back; the grammar has no aliases, so `close` is refused at its line and column with the list that
/// names `flush`.
@Suite struct CloseRuleKeyTests {
    @Test func flushReadsAndRendersBack() throws {
        let yaml = "name: x\nfaults:\n  mount: true\n  rules:\n    - {ops: [flush], path: \"*.sqlite\", nth: 2, action: errno EIO, actor: backup-1}\n"
        let parsed = try ScenarioParser.parse(yaml: yaml)
        #expect(parsed.faults.rules.first?.ops == [.flush] && parsed.faults.rules.first?.nth == 2)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func closeIsNotAnOperationName() {
        expectScenarioError("name: x\nfaults:\n  rules:\n    - {ops: [close], action: errno EIO}\n", line: 4, column: 13,
                            message: "unknown operation 'close'; known: any, open, create, read, write, flush")
    }
}
