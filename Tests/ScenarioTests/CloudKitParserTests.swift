import Foundation
import Scenario
import Testing

/// The CloudKit keys of a scenario (docs/cloudkit.md): `store.cloudkit`, `cloud:`, and the `relocate` and `sync`
/// entries read, render back to the same scenario, and refuse mistakes at their line and column.
@Suite struct CloudKitParserTests {
    static let scenario = """
        name: cloud
        store: {objects: 20, cloudkit: true}
        cloud: {account: unavailable, setup_deadline: 0.5, container: "iCloud.org.example.Notes"}
        schedule:
          - sync: live
          - relocate: relocate-app-group
            to: Group/Notes.sqlite
            after_step: 0
          - sync: live
            after_writers: true
        invariants: [no-duplicates, cloud-consistent, relocation-completes]
        expect: violation relocation-completes
        """

    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: Self.scenario)
        #expect(parsed.store.cloudkit)
        #expect(parsed.cloud?.account == "unavailable" && parsed.cloud?.setupDeadline == 0.5 && parsed.cloud?.container == "iCloud.org.example.Notes")
        #expect(parsed.schedule.map(\.action.rawValue) == ["sync", "relocate", "sync"])
        #expect(parsed.schedule[1].relocation?.to == "Group/Notes.sqlite" && parsed.schedule[1].afterStep == 0)
        #expect(parsed.schedule[0].afterCommits == 0)
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed))
        #expect(again == parsed)
    }

    @Test(arguments: [
        ("name: x\nschedule:\n  - relocate: relocate-sideways\n", 3, 15, "unknown relocation strategy 'relocate-sideways'"),
        ("name: x\nschedule:\n  - relocate: relocate-app-group\n    to: ../outside.sqlite\n", 4, 9, "must be a relative path inside the store's volume"),
        ("name: x\nschedule:\n  - sync: backup\n", 3, 11, "`sync:` takes `live`"),
        ("name: x\ncloud: {account: maybe}\n", 2, 18, "account"),
        ("name: x\ncloud: {setup_deadline: 0}\n", 2, 25, "setup_deadline"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
