import Foundation
import Scenario
import Testing

/// The keys of a move that the run follows (docs/scenario-file.md): `writers.across_relocate`,
/// `readers.across_relocate` and the `cleanup: old-store` entry read, render back to the same scenario, and
/// refuse mistakes at their line and column.
@Suite struct RelocationKeysTests {
    static let scenario = """
        name: widget
        writers: {count: 1, transactions: 30, across_relocate: keep}
        readers: {count: 1, hold: 0.1, across_relocate: keep}
        schedule:
          - relocate: relocate-replace-only
            to: Group/Library.sqlite
            after_commits: 10
          - cleanup: old-store
            container: iCloud.org.example.Notes
            unless_open: true
            after_step: 0
        invariants: [relocation-carries-commits]
        expect: violation relocation-carries-commits
        """

    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: Self.scenario)
        #expect(parsed.writers.acrossRelocate == "keep" && parsed.readers?.acrossRelocate == "keep")
        #expect(parsed.schedule.map(\.action.rawValue) == ["relocate", "cleanup"])
        #expect(parsed.schedule[0].strategy == "relocate-replace-only")
        #expect(parsed.schedule[1].cleanup?.container == "iCloud.org.example.Notes" && parsed.schedule[1].cleanup?.unlessOpen == true)
        #expect(parsed.schedule[1].cleanup?.onlyWhenNoneHoldsIt == true)
        #expect(parsed.schedule[1].afterStep == 0)
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed))
        #expect(again == parsed)
    }

    @Test func theSeedsMoveOptionsReadAndRenderBack() throws {
        let parsed = try ScenarioParser.parse(yaml: """
            name: first-attempt
            schedule:
              - relocate: relocate-migrate
                cloudkit: on
                migrate_existing: overwrite
              - relocate: relocate-replace
                cloudkit: off
            """)
        #expect(parsed.schedule[0].relocation?.cloudKitDuringMove == true && parsed.schedule[0].migrateExisting == "overwrite")
        #expect(parsed.schedule[1].relocation?.cloudKitDuringMove == false)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func defaultsStopEveryProcessForTheMove() throws {
        let parsed = try ScenarioParser.parse(yaml: "name: x\nreaders: {count: 1}\n")
        #expect(parsed.writers.acrossRelocate == "stop" && parsed.readers?.acrossRelocate == "stop")
    }

    @Test(arguments: [
        ("name: x\nwriters: {across_relocate: follow}\n", 2, 28, "across_relocate"),
        ("name: x\nreaders: {across_relocate: 1}\n", 2, 28, "across_relocate"),
        ("name: x\nschedule:\n  - relocate: relocate-replace\n  - cleanup: everything\n", 4, 14, "`cleanup:` takes `old-store`"),
        ("name: x\nschedule:\n  - relocate: relocate-replace\n  - cleanup: old-store\n    container: a/b\n", 5, 16, "plain file name"),
        ("name: x\nschedule:\n  - relocate: relocate-replace\n  - cleanup: old-store\n    unless_open: maybe\n", 5, 18, "unless_open"),
        ("name: x\nschedule:\n  - cleanup: old-store\n", 3, 14, "put a relocate before it"),
        ("name: x\nschedule:\n  - relocate: relocate-migrate\n    cloudkit: maybe\n", 4, 15, "cloudkit must be one of on, off"),
        ("name: x\nscheduler: turns\nschedule:\n  - relocate: relocate-replace\n", 4, 15, "relocate with writers needs the free scheduler"),
        ("name: x\nschedule:\n  - relocate: relocate-replace\n    migrate_existing: append\n", 4, 23, "migrate_existing is for `relocate: relocate-migrate`"),
        ("name: x\nschedule:\n  - cleanup: old-store\n    when: idle\n", 4, 5, "unknown key 'when'"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3, amongAll: true)
    }
}
