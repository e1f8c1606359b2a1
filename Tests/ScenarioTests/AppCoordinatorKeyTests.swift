import Foundation
import Scenario
import Testing

/// `backup: migrate` with `coordinator: app` (docs/scenario-file.md): migratePersistentStore on the app's own
/// coordinator reads, renders back, and is refused where it means nothing.
@Suite struct AppCoordinatorKeyTests {
    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: """
            name: x
            schedule:
              - backup: migrate
                coordinator: app
                after_commits: 20
              - backup: migrate
                coordinator: own
            """)
        #expect(parsed.schedule[0].copy.coordinator == .app && parsed.schedule[1].copy.coordinator == .own)
        // `coordinator: own` is the default: no details, as for a backup that does not say.
        #expect(parsed.schedule[1].details == .none)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func savesAfterMigrateReadsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: """
            name: x
            schedule:
              - backup: migrate
                coordinator: app
                saves_after_migrate: fail
              - backup: migrate
                coordinator: app
                saves_after_migrate: go-to-copy
            """)
        #expect(parsed.schedule[0].copy.savesAfterMigrate == .fail && parsed.schedule[1].copy.savesAfterMigrate == .goToCopy)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test(arguments: [
        ("name: x\nschedule:\n  - backup: replace\n    coordinator: app\n", 4, 18, "coordinator is for `backup: migrate`"),
        ("name: x\nschedule:\n  - backup: migrate\n    coordinator: mine\n", 4, 18, "coordinator must be one of own, app"),
        ("name: x\nschedule:\n  - restore: replace-then-readd\n    coordinator: app\n", 4, 18, "coordinator is for `backup: migrate`"),
        ("name: x\nwriters: {count: 0}\nschedule:\n  - backup: migrate\n    coordinator: app\n", 5, 18, "needs a writer"),
        ("name: x\nscheduler: turns\nschedule:\n  - backup: migrate\n    coordinator: app\n", 5, 18, "needs the free scheduler"),
        ("name: x\nschedule:\n  - backup: migrate\n    coordinator: app\n    saves_after_migrate: never\n", 5, 26, "saves_after_migrate must be one of go-to-copy, fail"),
        ("name: x\nschedule:\n  - backup: migrate\n    saves_after_migrate: fail\n", 4, 26, "saves_after_migrate is for `backup: migrate` with `coordinator: app`"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
