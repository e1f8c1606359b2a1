import Foundation
import Scenario
import Testing

/// The event kinds beside backups and restores: each reads its keys, renders back to the same scenario, and
/// refuses a mistake at its line and column.
@Suite struct TimelineEventParserTests {
    static let everyKind = """
        name: events
        sidecars:
          - {name: replicator, command: "sleep 60"}
        schedule:
          - backup: backup-api
            after_commits: 20
          - checkpoint: truncate
            during_step: 0
            delay: 0.1
          - checkpoint: passive
            at_seconds: 2
          - bulk-delete: 25%
            after_commits: 40
          - bulk-delete: 12
            after_step: 3
          - vacuum: true
            after_step: 0
            delay: 1.5
          - pause-writers: true
            after_commits: 50
          - resume-writers: true
            after_step: 6
            delay: 0.5
          - sidecar: replicator
            action: kill
            after_commits: 60
          - sidecar: {name: replicator, action: start}
            after_step: 8
          - restore: replace-then-readd
            after_step: 0
        """

    @Test func everyKindReadsItsKeys() throws {
        let s = try ScenarioParser.parse(yaml: Self.everyKind)
        #expect(s.schedule.map(\.action.rawValue) == ["backup", "checkpoint", "checkpoint", "bulk-delete", "bulk-delete", "vacuum",
                                                      "pause-writers", "resume-writers", "sidecar", "sidecar", "restore"])
        #expect(s.schedule[1].strategy == "truncate" && s.schedule[1].duringStep == 0 && s.schedule[1].delay == 0.1)
        #expect(s.schedule[2].strategy == "passive" && s.schedule[2].atSeconds == 2 && s.schedule[2].afterCommits == nil)
        #expect(s.schedule[3].strategy == "25%" && Scenario.Step.bulkDeleteAmount("25%")?.share == 0.25)
        #expect(s.schedule[4].afterStep == 3 && Scenario.Step.bulkDeleteAmount("12")?.count == 12)
        #expect(s.schedule[5].afterStep == 0 && s.schedule[5].delay == 1.5)
        #expect(s.schedule[8].strategy == "replicator" && s.schedule[8].sidecarAction == .kill)
        #expect(s.schedule[9].sidecarAction == .start && s.schedule[9].afterStep == 8)
        // A restore after a step waits for that step, not for the writers.
        #expect(s.schedule[10].afterStep == 0 && !s.schedule[10].afterWriters)
    }

    @Test func everyKindRendersBackToTheSameScenario() throws {
        let s = try ScenarioParser.parse(yaml: Self.everyKind)
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(s))
        #expect(again == s)
    }

    @Test func anEntryWithoutATriggerRunsAtOnce() throws {
        let s = try ScenarioParser.parse(yaml: "name: x\nschedule:\n  - checkpoint: full\n")
        #expect(s.schedule[0].afterCommits == 0)
    }

    @Test(arguments: [
        ("name: x\nschedule:\n  - checkpoint: sometimes\n", 3, 17, "schedule[0].checkpoint must be one of passive, full, restart, truncate"),
        ("name: x\nschedule:\n  - checkpoint: full\n    after_commits: 3\n    at_seconds: 2\n", 3, 5, "takes one of after_commits, at_seconds, after_writers, after_step, during_step"),
        ("name: x\nschedule:\n  - checkpoint: full\n    delay: 2\n", 4, 12, "delay needs during_step or after_step"),
        ("name: x\nschedule:\n  - checkpoint: full\n    after_step: 0\n", 4, 17, "after_step names the entry itself"),
        ("name: x\nschedule:\n  - checkpoint: full\n    after_step: 4\n", 4, 17, "names schedule[4], but the schedule has 1 entries"),
        ("name: x\nschedule:\n  - vacuum: true\n  - checkpoint: full\n    during_step: 0\n", 5, 18, "runs no process to be during"),
        ("name: x\nschedule:\n  - vacuum: false\n", 3, 13, "schedule[0].vacuum must be `true`"),
        ("name: x\nschedule:\n  - bulk-delete: half\n", 3, 18, "bulk-delete must be a count of objects (40) or a share"),
        ("name: x\nschedule:\n  - bulk-delete: 140%\n", 3, 18, "bulk-delete must be a count"),
        ("name: x\nschedule:\n  - sidecar: ghost\n    action: kill\n", 3, 14, "names the sidecar 'ghost', which the scenario does not have"),
        ("name: x\nsidecars:\n  - {name: a, command: b}\nschedule:\n  - sidecar: a\n    action: pet\n", 6, 13, "action must be one of kill, stop, start, restart"),
        ("name: x\nsidecars:\n  - {name: a, command: b}\nschedule:\n  - sidecar: a\n", 5, 5, "needs `action: kill | stop | start | restart`"),
        ("name: x\nschedule:\n  - pause-writers: true\n", 3, 20, "every pause-writers needs a resume-writers"),
        ("name: x\nscheduler: turns\nschedule:\n  - pause-writers: true\n  - resume-writers: true\n", 4, 20, "needs the free scheduler"),
        ("name: x\nschedule:\n  - pause-writers: true\n    after_writers: true\n  - resume-writers: true\n", 3, 5, "after the writers have finished does nothing"),
        ("name: x\nschedule:\n  - checkpoint: full\n    every_commits: 3\n", 4, 5, "unknown key 'every_commits' in schedule[0]"),
    ] as [(String, Int, Int, String)])
    func mistakesPointAtTheirKey(_ input: (String, Int, Int, String)) {
        let (yaml, line, column, message) = input
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "bad.yaml")
            Issue.record("accepted: \(yaml)")
        } catch let error as ScenarioError {
            #expect(error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }
}
