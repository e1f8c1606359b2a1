import Foundation
import Scenario
import Testing

/// `sidecars:` in scenario files: read as written, rendered back the same, every mistake at its line and column.
@Suite struct SidecarParserTests {
    @Test func readsSidecarsAndRendersThemBack() throws {
        let scenario = try ScenarioParser.parse(yaml: """
            name: with-sidecars
            sidecars:
              - name: replicator
                command: sh "$LIFEBOAT_SCENARIO_DIR/replicate.sh"
              - {name: late_one, command: "sleep 100", start: at_seconds 1.5, stop: at_seconds 4, grace: 0.5}
              - {name: until-writers, command: "true", start: with_writers, stop: after_writers}
            """)
        #expect(scenario.sidecars.count == 3)
        #expect(scenario.sidecars[0].start == .withWriters && scenario.sidecars[0].stop == .afterWriters && scenario.sidecars[0].grace == 5)
        #expect(scenario.sidecars[1].start == .atSeconds(1.5) && scenario.sidecars[1].stop == .atSeconds(4) && scenario.sidecars[1].grace == 0.5)
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario))
        #expect(again == scenario)
    }

    @Test func noSidecarsRendersNone() throws {
        let scenario = try ScenarioParser.parse(yaml: "name: plain")
        #expect(scenario.sidecars.isEmpty && !ScenarioYAML.render(scenario).contains("sidecars"))
    }

    @Test(arguments: [
        ("sidecars:\n  - {command: x}", 2, "needs a `name:`"),
        ("sidecars:\n  - {name: a}", 2, "needs a `command:`"),
        ("sidecars:\n  - {name: a, command: x, start: soon}", 2, "with_writers"),
        ("sidecars:\n  - {name: a, command: x, stop: at_seconds -1}", 2, "after_writers"),
        ("sidecars:\n  - {name: a, command: x, start: at_seconds 5, stop: at_seconds 2}", 2, "not after it starts"),
        ("sidecars:\n  - {name: a, command: x}\n  - {name: a, command: y}", 3, "two sidecars are named 'a'"),
        ("sidecars:\n  - {name: 'a b', command: x}", 2, "letters, digits"),
        ("sidecars:\n  - name: a\n    command: x\n    restart: always", 4, "unknown key 'restart' in sidecars[0]; expected one of: name, command"),
        ("sidecars:\n  - {name: a, command: x, grace: 1000}", 2, "between 0.0 and 600.0"),
        ("sidecars: nope", 1, "must be a list"),
    ])
    func mistakesPointAtTheirPlace(_ body: String, _ line: Int, _ message: String) throws {
        do {
            _ = try ScenarioParser.parse(yaml: "name: bad\n" + body, file: "bad.yaml")
            Issue.record("accepted: \(body)")
        } catch let error as ScenarioError {
            #expect(error.file == "bad.yaml")
            #expect(error.line == line + 1, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
