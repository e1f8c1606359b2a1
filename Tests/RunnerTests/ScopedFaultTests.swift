import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// Fault rules scoped to one process (`actor:`) or to the time a sidecar runs (`while_sidecar:`), on FaultFS.
@Suite(.serialized, .ownThread) struct ScopedFaultTests {
    @Test func anActorRuleFailsOnlyThatWritersCalls() throws {
        let (result, _, _) = try TimelineEventTests.run("""
            name: actor-rule
            store: {objects: 30, blob_fraction: 0}
            writers: {count: 2, transactions: 40, rate: 100, blob_fraction: 0}
            faults:
              rules:
                - {ops: [write], path: "*.sqlite-wal", probability: 0.5, action: errno EIO, actor: writer-1}
            invariants: [integrity]
            expect: pass
            """, name: "actor-rule")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let failed = Dictionary(uniqueKeysWithValues: result.writers.map { ($0.writer, $0.failed) })
        #expect((failed[1] ?? 0) > 0, "writer-1's writes fail")
        #expect(failed[2] == 0, "writer-2 is outside the rule's scope")
        #expect(result.faults.first?.fired ?? 0 > 0)
    }

    /// A step's process waits at a start gate until its scoped rules are armed, so even a program whose first
    /// call comes at once meets the rule there (before the gate, a quick program on a loaded machine could finish
    /// before the rule was armed, and a walk's N named nothing).
    @Test func anActorRuleCoversAStepsVeryFirstCall() throws {
        let (result, _, _) = try TimelineEventTests.run("""
            name: actor-first-call
            store: {objects: 20, blob_fraction: 0}
            writers: {count: 1, transactions: 5, blob_fraction: 0}
            schedule:
              - backup: command
                command: 'echo x > "$LIFEBOAT_BACKUP_DIR/first"'
                after_commits: 2
            faults:
              backups_on_volume: true
              rules:
                - {ops: [create], path: "*/first", nth: 1, action: errno EACCES, actor: backup-0}
            invariants: [integrity]
            expect: pass
            """, name: "actor-first-call")
        #expect(result.faults.first?.fired == 1, "\(result.faults)")
        #expect(result.faults.forRule(0) == result.faults.first && result.faults.forRule(1) == nil, "a scoped rule's result is found by its index")
        #expect(result.operations.first { $0.name == "backup-0" }?.succeeded == false, "the program's first create failed")
    }

    @Test func aWhileSidecarRuleIsArmedOnlyWhileTheSidecarRuns() throws {
        let (result, _, _) = try TimelineEventTests.run("""
            name: while-sidecar
            store: {objects: 30, blob_fraction: 0}
            writers: {count: 1, transactions: 150, rate: 100, blob_fraction: 0}
            sidecars:
              - name: window
                command: 'while true; do sleep 0.05; done'
                start: at_seconds 3000
                grace: 0
            schedule:
              - sidecar: {name: window, action: start}
                after_commits: 30
              - sidecar: {name: window, action: stop}
                after_step: 0
                delay: 0.5
            faults:
              rules:
                - {ops: [write], path: "*.sqlite-wal", action: errno EIO, while_sidecar: window}
            invariants: [integrity]
            expect: pass
            """, name: "while-sidecar")
        #expect(result.errors.isEmpty, "\(result.errors)")
        let start = try #require(result.events.first { $0.actor == "sidecar-window" && $0.kind == .start }?.t)
        let end = try #require(result.events.first { $0.actor == "sidecar-window" && $0.kind == .end }?.t)
        let writer = try #require(result.writers.first)
        #expect(writer.failed > 0, "writes fail while the sidecar runs")
        // Commits before and after the window, none inside it.
        #expect(writer.commitTimes.contains { $0 < start } && writer.commitTimes.contains { $0 > end })
        #expect(!writer.commitTimes.contains { $0 > start + 0.05 && $0 < end - 0.05 }, "\(writer.commitTimes) in \(start)...\(end)")
    }

    @Test func scopedRulesAreReadAndRefusedWithTheirPlace() throws {
        let s = try ScenarioParser.parse(yaml: """
            name: x
            sidecars: [{name: tool, command: "true"}]
            faults:
              rules:
                - {ops: [read], action: delay 5, actor: sidecar-tool}
                - {ops: [read], action: delay 5, while_sidecar: tool, actor: "sidecar-*"}
            """)
        #expect(s.faults.rules[0].actor == "sidecar-tool" && s.faults.rules[1].whileSidecar == "tool")
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(s)) == s)
        #expect(throws: ScenarioError.self) {
            try ScenarioParser.parse(yaml: "name: x\nfaults:\n  rules:\n    - {action: delay 5, while_sidecar: ghost}\n")
        }
        do {
            _ = try ScenarioParser.parse(yaml: "name: x\nfaults:\n  rules:\n    - {action: delay 5, while_sidecar: ghost}\n", file: "bad.yaml")
        } catch let error as ScenarioError {
            #expect(error.line == 4 && error.column == 40 && error.message.contains("'ghost', which is not a sidecar"), "\(error)")
        }
    }
}
