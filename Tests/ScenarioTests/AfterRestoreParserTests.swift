import Foundation
import Scenario
import Testing

/// `writers.after_restore` and the `after_step` + `after_writers` trigger: read, rendered back to the same
/// scenario, and every mistake refused at its line and column.
@Suite struct AfterRestoreParserTests {
    static let twoRounds = """
        name: rounds
        writers: {count: 2, transactions: 40, after_restore: continue, across_restore: stop}
        schedule:
          - backup: vacuum-into
            after_writers: true
          - restore: replace-then-readd
            after_step: 0
          - bulk-delete: 5
            after_step: 1
          - backup: command
            command: 'sh backup.sh'
            after_step: 1
            after_writers: true
          - checkpoint: truncate
            after_step: 3
            after_writers: true
            delay: 0.5
        """

    @Test func afterRestoreAndTheCombinedTriggerRead() throws {
        let s = try ScenarioParser.parse(yaml: Self.twoRounds)
        #expect(s.writers.afterRestore == "continue" && s.writers.acrossRestore == "stop")
        #expect(s.schedule[3].afterStep == 1 && s.schedule[3].afterWriters && s.schedule[3].afterCommits == nil)
        #expect(s.schedule[4].afterStep == 3 && s.schedule[4].afterWriters && s.schedule[4].delay == 0.5)
        #expect(try ScenarioParser.parse(yaml: "name: x\n").writers.afterRestore == "stop")
        // The turns scheduler gives a round a restore begins turns of its own (`try --deep`'s restore base).
        let turns = try ScenarioParser.parse(yaml: "name: x\nscheduler: turns\nwriters:\n  after_restore: continue\n")
        #expect(turns.scheduler == "turns" && turns.writers.afterRestore == "continue")
    }

    @Test func theyRenderBackToTheSameScenario() throws {
        let s = try ScenarioParser.parse(yaml: Self.twoRounds)
        let text = ScenarioYAML.render(s)
        #expect(text.contains("after_restore: continue"))
        #expect(try ScenarioParser.parse(yaml: text) == s)
        // The default is not written out, and reads back as the default.
        let plain = try ScenarioParser.parse(yaml: "name: x\n")
        #expect(!ScenarioYAML.render(plain).contains("after_restore"))
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(plain)) == plain)
    }

    @Test(arguments: [
        ("name: x\nwriters:\n  after_restore: resume\n", 3, 18, "writers.after_restore must be one of continue, stop"),
        ("name: x\nwriters:\n  after_restore: [continue]\n", 3, 18, "after_restore"),
        ("name: x\nwriters:\n  after_restor: continue\n", 3, 3, "after_restor"),
        ("name: x\nschedule:\n  - backup: replace\n  - backup: replace\n    after_commits: 3\n    after_writers: true\n", 4, 5,
         "takes one of after_commits, at_seconds, after_writers, after_step"),
        ("name: x\nschedule:\n  - backup: replace\n  - checkpoint: full\n    at_seconds: 3\n    after_writers: true\n", 4, 5,
         "takes one of after_commits, at_seconds, after_writers, after_step, during_step"),
    ] as [(String, Int, Int, String)])
    func mistakesAreReportedWhereTheyAre(_ yaml: String, line: Int, column: Int, message: String) throws {
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "f.yaml")
            Issue.record("accepted: \(yaml)")
        } catch let error as ScenarioError {
            #expect(error.file == "f.yaml" && error.line == line && error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
        }
    }
}
