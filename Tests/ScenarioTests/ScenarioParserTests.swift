import Foundation
import LifeboatTestSupport
import Scenario
import Testing

/// Scenario files: what they say is what runs; every mistake is reported at its line and column.
@Suite struct ScenarioParserTests {
    @Test func readsEveryFieldAndAppliesDefaults() throws {
        let scenario = try ScenarioParser.parse(yaml: """
            name: demo
            seed: 99
            store: {objects: 50, blob_size: 64KiB}
            writers:
              count: 3
              mix: {insert: 1, update: 0, delete: 0, link: 0}
            schedule:
              - backup: migrate
                after_commits: 10
                every_commits: 5
                times: 3
                destination: reuse
              - restore: replace-then-readd
            faults:
              rules:
                - {ops: [write, fsync], path: "*.sqlite-wal", nth: 3, action: errno EIO, during_step: 0}
              crash: {during_step: 1, delay: 0.2, mode: keep-prefix 4}
            invariants: [integrity, no-duplicates]
            expect: violation no-duplicates
            """)
        #expect(scenario.name == "demo" && scenario.seed == 99)
        #expect(scenario.store.objects == 50 && scenario.store.blobSize == 65536 && scenario.store.blobFraction == 0.2)
        #expect(scenario.writers.count == 3 && scenario.writers.mix.insert == 1 && scenario.writers.transactions == 100)
        #expect(scenario.schedule[0].everyCommits == 5 && scenario.schedule[0].times == 3 && scenario.schedule[0].destination == "reuse")
        #expect(scenario.schedule[1].action == .restore && scenario.schedule[1].afterWriters)
        #expect(scenario.faults.rules[0].ops == [.write, .fsync] && scenario.faults.rules[0].nth == 3)
        #expect(scenario.faults.crash?.mode == .keepPrefix(4) && scenario.faults.crash?.moment == .delay(0.2))
        #expect(scenario.expect == .violation("no-duplicates"))
    }

    /// `violation a|b`: met by a violation of either, and written back as it was read (repro files replay it).
    @Test func anExpectationMayNameAlternatives() throws {
        let scenario = try ScenarioParser.parse(yaml: "name: torn\nexpect: violation integrity|snapshot-consistent\n")
        #expect(scenario.expect.invariants == ["integrity", "snapshot-consistent"])
        #expect(scenario.expect.description == "violation integrity|snapshot-consistent")
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario))
        #expect(again.expect == scenario.expect)
        #expect(Scenario.Expectation.pass.invariants.isEmpty)
    }

    /// Each bad input, the message it must give, and where.
    @Test(arguments: [
        ("name: x\nstore:\n  objcts: 5\n", 3, 3, "unknown key 'objcts' in scenario.store; expected one of: objects"),
        ("name: x\nwriters:\n  count: many\n", 3, 10, "writers.count must be a whole number, not 'many'"),
        ("name: x\nwriters:\n  count: 500\n", 3, 10, "must be between 0 and 64"),
        ("name: x\nschedule:\n  - backup: teleport\n", 3, 13, "unknown backup strategy 'teleport'"),
        ("name: x\nschedule:\n  - after_commits: 3\n", 3, 5, "needs exactly one of `backup: STRATEGY`, `restore: STRATEGY`, `checkpoint: "),
        ("name: x\nexpect: violation everything\n", 2, 9, "expect must be `pass` or `violation <invariant>`"),
        ("name: x\nexpect: violation integrity|everything\n", 2, 9, "expect must be `pass` or `violation <invariant>`"),
        ("name: x\nexpect: violation integrity|\n", 2, 9, "expect must be `pass` or `violation <invariant>`"),
        ("name: x\nfaults:\n  rules:\n    - action: errno EWHATEVER\n", 4, 15, "action must be errno NAME"),
        ("name: x\nfaults:\n  crash: {mode: torn}\n", 3, 10, "needs exactly one of after_commits, at_seconds, during_step"),
        ("name: x\nfaults:\n  crash: {after_commits: 3, at_page: 4}\n", 3, 38, "at_page needs during_step"),
        ("name: x\nschedule:\n  - backup: replace\nfaults:\n  crash: {during_step: 0, at_page: 4, delay: 1}\n", 5, 36, "at_page or delay, not both"),
        ("name: x\nschedule:\n  - backup: replace\nfaults:\n  crash: {during_step: 0, at_page: 0}\n", 5, 36, "at_page must be between 1"),
        ("name: x\ninvariants: [integrity, speed]\n", 2, 25, "unknown invariant 'speed'"),
        ("name: [unclosed\n", 2, 1, "YAML:"),
        ("- just\n- a list\n", 1, 1, "scenario must be a mapping"),
    ] as [(String, Int, Int, String)])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        let (yaml, line, column, message) = input
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "bad.yaml")
            Issue.record("accepted: \(yaml)")
        } catch let error as ScenarioError {
            #expect(error.file == "bad.yaml")
            #expect(error.line == line, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains(message), "\(error)")
            #expect(error.description.hasPrefix("bad.yaml:\(line):\(column): error: "))
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }

    @Test func extendsTakesDefaultsFromAnotherFileAndMergeKeysWork() throws {
        let scratch = try Scratch("extends")
        try "seed: 5\nwriters: {count: 4, transactions: 7}\nstore: {objects: 11}\n".write(to: scratch.path("base.yaml"), atomically: true, encoding: .utf8)
        try """
            name: child
            extends: base.yaml
            writers: {count: 1}
            defaults: &d {after_commits: 3}
            schedule:
              - {<<: *d, backup: replace}
            """.write(to: scratch.path("child.yaml"), atomically: true, encoding: .utf8)
        // `defaults` is not a scenario key: unknown keys are errors even next to anchors.
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(file: scratch.path("child.yaml")) }
        try """
            name: child
            extends: base.yaml
            writers: {count: 1}
            schedule:
              - &d {backup: replace, after_commits: 3}
              - {<<: *d, backup: migrate}
            """.write(to: scratch.path("child.yaml"), atomically: true, encoding: .utf8)
        let scenario = try ScenarioParser.parse(file: scratch.path("child.yaml"))
        #expect(scenario.seed == 5 && scenario.store.objects == 11)
        #expect(scenario.writers.count == 1 && scenario.writers.transactions == 7)
        #expect(scenario.schedule.map(\.strategy) == ["replace", "migrate"] && scenario.schedule[1].afterCommits == 3)
    }

    @Test func extendsLoopsAndMissingFilesAreErrors() throws {
        let scratch = try Scratch("loops")
        try "name: a\nextends: b.yaml\n".write(to: scratch.path("a.yaml"), atomically: true, encoding: .utf8)
        try "name: b\nextends: a.yaml\n".write(to: scratch.path("b.yaml"), atomically: true, encoding: .utf8)
        #expect { try ScenarioParser.parse(file: scratch.path("a.yaml")) } throws: { ($0 as? ScenarioError)?.message.contains("loops") == true }
        try "name: c\nextends: nowhere.yaml\n".write(to: scratch.path("c.yaml"), atomically: true, encoding: .utf8)
        #expect { try ScenarioParser.parse(file: scratch.path("c.yaml")) } throws: { ($0 as? ScenarioError)?.line == 2 }
    }

    /// A directory, a FIFO or a device is no scenario file: refused from stat(2) alone (reading a FIFO would block
    /// forever), at the `extends:` line when another file names it.
    @Test func nonRegularFilesAreRefusedWithoutReadingThem() throws {
        let scratch = try Scratch("non-regular")
        try FileManager.default.createDirectory(at: scratch.path("dir"), withIntermediateDirectories: true)
        #expect(mkfifo(scratch.path("fifo.yaml").path, 0o600) == 0)
        try "name: d\nextends: dir\n".write(to: scratch.path("d.yaml"), atomically: true, encoding: .utf8)
        try "name: f\nextends: fifo.yaml\n".write(to: scratch.path("f.yaml"), atomically: true, encoding: .utf8)
        for (file, words) in [("d.yaml", "directory"), ("f.yaml", "FIFO")] {
            #expect { try ScenarioParser.parse(file: scratch.path(file)) } throws: { error in
                guard let error = error as? ScenarioError else { return false }
                return error.file.hasSuffix(file) && error.line == 2 && error.column == 10 && error.message.contains(words)
            }
        }
        #expect { try ScenarioParser.parse(file: scratch.path("fifo.yaml")) } throws: { ($0 as? ScenarioError)?.message.contains("FIFO") == true }
        #expect { try ScenarioParser.parse(file: URL(fileURLWithPath: "/dev/zero")) } throws: { ($0 as? ScenarioError)?.message.contains("device") == true }
    }

    @Test func renderedScenarioParsesBackToTheSame() throws {
        let original = try ScenarioParser.parse(yaml: """
            name: "round \\"trip\\""
            description: "with: colons"
            seed: 123456789
            writers: {checkpoint: none, rate: 50.5}
            schedule:
              - {backup: command, command: "cp \\"$LIFEBOAT_STORE\\" x", after_commits: 4}
              - {backup: backup-api, at_seconds: 1.5, pages_per_step: 4, step_delay: 0.01, max_restarts: 5, copy_external_data: false}
              - {restore: file-copy-over}
            faults:
              mount: true
              backups_on_volume: true
              rules: [{ops: [fsync], path: "*-wal", after: 2, action: fsync-lie}]
              crash: {after_commits: 9, mode: torn}
            expect: violation durable-after-crash
            """)
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(original))
        #expect(again == original)
        let atPage = try ScenarioParser.parse(yaml: """
            name: at page
            schedule: [{restore: replace-then-readd, pages_per_step: 8}]
            faults: {crash: {during_step: 0, at_page: 40, mode: reorder}}
            """)
        #expect(atPage.faults.crash?.moment == .atPage(40))
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(atPage)) == atPage)
    }
}
