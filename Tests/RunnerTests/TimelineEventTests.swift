@testable import Checks
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing
import Workload

/// The event kinds beside backups and restores, run for real: a checkpoint and a vacuum from their own
/// connection, a bulk delete the oracle holds the store to, a sidecar killed and restarted, the writers paused
/// and resumed, an entry during a backup; under both schedulers.
@Suite(.serialized, .ownThread) struct TimelineEventTests {
    /// Runs the scenario; the scratch comes back too, since the run directory lives in it.
    static func run(_ yaml: String, name: String) throws -> (RunResult, RunDirectory, Scratch) {
        let scratch = try Scratch(name)
        let file = scratch.path("\(name).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        let (result, directory) = try DrillTests.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch)
        return (result, directory, scratch)
    }

    static func failures(_ result: RunResult) -> String {
        "\(result.verdicts.filter { $0.status == .violated }.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" }) \(result.errors)"
    }

    @Test func storeOperationsRunAndBulkDeletesAreHeldToTheirHistory() throws {
        let (result, _, _) = try Self.run("""
            name: store-ops
            store: {objects: 200, blob_fraction: 0.3, blob_size: 8KiB}
            writers: {count: 2, transactions: 60, rate: 150, blob_fraction: 0.2, blob_size: 8KiB}
            schedule:
              - bulk-delete: 50%
                after_commits: 10
              - checkpoint: passive
                after_step: 0
              - backup: backup-api
                after_commits: 40
                pages_per_step: 4
                step_delay: 0.01
              - checkpoint: full
                during_step: 2
                delay: 0.02
              - vacuum: true
                after_writers: true
              - checkpoint: truncate
                after_step: 4
              - restore: replace-then-readd
                after_step: 5
            faults: {crash: {after_commits: 1000}}
            expect: pass
            """, name: "store-ops")
        #expect(result.expectationMet, "\(Self.failures(result))")
        let ops = Dictionary(uniqueKeysWithValues: result.operations.map { ($0.name, $0) })
        let deleted = try #require(ops["bulk-delete-0"]?.details["deleted"].flatMap(Int.init))
        #expect(deleted > 50 && deleted <= 100, "half of the initial notes")
        #expect(ops["checkpoint-1"]?.details["mode"] == "PASSIVE" && ops["checkpoint-1"]?.succeeded == true)
        // The vacuum ran after the bulk delete: the store shrank.
        let vacuum = try #require(ops["vacuum-4"])
        #expect(vacuum.succeeded, "\(vacuum.error ?? "")")
        #expect(Int(vacuum.details["pagesAfter"] ?? "") ?? .max < Int(vacuum.details["pagesBefore"] ?? "") ?? 0)
        // TRUNCATE with nobody writing empties the -wal.
        #expect(ops["checkpoint-5"]?.details["busy"] == "0" && ops["checkpoint-5"]?.details["log"] == "0")
        // During the backup: started after it began and before it ended.
        let backup = try #require(ops["backup-2"]), during = try #require(ops["checkpoint-3"])
        #expect(during.start >= backup.start && during.start <= backup.end, "\(during.start) not in \(backup.start)...\(backup.end)")
        // Recorded as a history of its own: the writer list shows it, and every invariant held with it.
        #expect(result.writers.contains { $0.writer == 1000 && $0.committed == 1 })
        #expect(result.verdicts.first { $0.invariant == "live-store-unaffected" }?.status == .held)
    }

    /// The oracle's view of a bulk delete: before its acknowledgement the initial notes are as generated, after
    /// it they are gone; a store that still shows them after the ack matches only the empty prefix, one that lost
    /// them while the history never deleted them is a stranger.
    @Test func theOracleHoldsInitialObjectsToTheHistoryThatDeletesThem() throws {
        let scratch = try Scratch("oracle-bulk")
        let a = UUID(), b = UUID()
        let initial = [a: "ha", b: "hb"]
        let history = try HistoryWriter(scratch.path("bulk-delete-0.jsonl"))
        try history.append(HistoryRecord(writer: 1000, seq: 1, state: .intent, t: 1, ops: [HistoryOp(op: "delete", entity: "Note", id: a, hash: nil)]))
        try history.append(HistoryRecord(writer: 1000, seq: 1, state: .ack, t: 2))
        let delete = try #require(HistoryReader.transactions(in: scratch.url).first)
        let oracle = Oracle(transactions: [delete], initial: initial)
        var before = StoreState()
        before.notes = initial
        var after = StoreState()
        after.notes = [b: "hb"]
        var wrong = StoreState()
        wrong.notes = [a: "ha"]
        #expect(oracle.match(before).first?.prefixes == [0])
        #expect(oracle.match(after).first?.prefixes == [1])
        #expect(oracle.strangers(after).isEmpty)
        #expect(oracle.strangers(wrong) == ["initial object \(b.uuidString) is missing"])
    }

    @Test func sidecarsAreKilledAndRestartedAndWritersPaused() throws {
        let (result, directory, scratch) = try Self.run("""
            name: sidecar-actions
            store: {objects: 30, blob_fraction: 0}
            writers: {count: 2, transactions: 80, rate: 100, blob_fraction: 0}
            sidecars:
              - name: tool
                command: 'echo started; while true; do sleep 0.05; done'
            schedule:
              - sidecar: tool
                action: kill
                after_commits: 20
              - sidecar: {name: tool, action: start}
                after_step: 0
              - pause-writers: true
                after_commits: 60
              - resume-writers: true
                after_step: 2
                delay: 0.6
              - sidecar: tool
                action: restart
                after_step: 3
            expect: pass
            """, name: "sidecar-actions")
        #expect(result.expectationMet, "\(Self.failures(result))")
        let sidecars = result.operations.filter { $0.action == "sidecar" }
        #expect(sidecars.map(\.name) == ["sidecar-tool", "sidecar-tool.2", "sidecar-tool.3"])
        #expect(sidecars.map { $0.details["ended"] ?? "" } == ["killed by schedule[0] (SIGKILL)", "stopped (SIGTERM)", "stopped (SIGTERM)"])
        #expect(sidecars.allSatisfy { $0.succeeded })
        #expect(FileManager.default.fileExists(atPath: directory.url.appendingPathComponent("sidecar-tool.3.log").path), "in \(scratch.url.path)")
        let paused = try #require(result.events.first { $0.actor == "writers" && $0.detail.hasPrefix("paused") }?.t)
        let resumed = try #require(result.events.first { $0.actor == "writers" && $0.detail.hasPrefix("resumed") }?.t)
        #expect(resumed - paused >= 0.5)
        // No writer commits while paused (a transaction it had begun may complete right at the pause).
        let commits = result.writers.flatMap(\.commitTimes)
        let during = result.writers.map { writer in (writer.writer, writer.commitTimes.filter { $0 > paused + 0.1 && $0 < resumed - 0.01 }) }.filter { !$0.1.isEmpty }
        #expect(!commits.contains { $0 > paused + 0.1 && $0 < resumed - 0.01 }, "commits between \(paused) and \(resumed): \(during); events: \(result.events.map { "\($0.t) \($0.actor) \($0.detail)" })")
        #expect(result.writers.filter { $0.writer < 1000 }.allSatisfy { $0.committed == 80 })
    }

    @Test func theTurnsSchedulerDispatchesTheSameKinds() throws {
        let (result, _, _) = try Self.run("""
            name: turns-events
            scheduler: turns
            seed: 3
            store: {objects: 40, blob_fraction: 0}
            writers: {count: 2, transactions: 30, blob_fraction: 0}
            schedule:
              - bulk-delete: 5
                after_commits: 10
              - checkpoint: restart
                after_commits: 20
              - backup: replace
                after_step: 1
              - restore: replace-then-readd
            expect: pass
            """, name: "turns-events")
        #expect(result.expectationMet, "\(Self.failures(result))")
        #expect(result.operations.map(\.name) == ["bulk-delete-0", "checkpoint-1", "backup-2", "restore-3"])
        #expect(result.operations.first?.details["deleted"] == "5")
    }
}

/// `restore-at-time`: a store restored to a moment holds each writer's transactions acknowledged by then, give
/// or take the one in flight.
@Suite struct RestoreAtTimeTests {
    @Test func aPointInTimeRestoreIsHeldToTheHistoryPrefixAtThatMoment() throws {
        let scratch = try Scratch("restore-at-time")
        let ids = (0..<3).map { _ in UUID() }
        let history = try HistoryWriter(scratch.path("writer-1.jsonl"))
        for (seq, id) in ids.enumerated() {
            // Transaction k begins at k + 0.9 and is acknowledged at k + 1.
            try history.append(HistoryRecord(writer: 1, seq: seq + 1, state: .intent, t: Double(seq) + 0.9,
                                             ops: [HistoryOp(op: "insert", entity: "Note", id: id, hash: "h\(seq)")]))
            try history.append(HistoryRecord(writer: 1, seq: seq + 1, state: .ack, t: Double(seq) + 1))
        }
        let oracle = Oracle(transactions: HistoryReader.transactions(in: scratch.url), initial: [:])
        var twoIn = StoreState()
        twoIn.notes = [ids[0]: "h0", ids[1]: "h1"]
        #expect(RestoreAtTime.verdict(twoIn, oracle: oracle, at: 2.5, label: "r").status == .held)
        // At 2.95 the third was begun, not acknowledged: with or without it.
        #expect(RestoreAtTime.verdict(twoIn, oracle: oracle, at: 2.95, label: "r").status == .held)
        // At 1.5 only the first was acknowledged: a second is from the future.
        let early = RestoreAtTime.verdict(twoIn, oracle: oracle, at: 1.5, label: "r")
        #expect(early.status == .violated && early.evidence.first?.contains("1 acknowledged") == true, "\(early.evidence)")
        // At 3.5 all three were acknowledged: the third is missing.
        #expect(RestoreAtTime.verdict(twoIn, oracle: oracle, at: 3.5, label: "r").status == .violated)
    }

    @Test func atTimeIsARestoreOption() throws {
        let s = try ScenarioParser.parse(yaml: "name: x\nschedule:\n  - backup: replace\n  - restore: command\n    command: \"true\"\n    at_time: 1.5\n")
        #expect(s.schedule[1].atTime == 1.5)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(s)) == s)
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(yaml: "name: x\nschedule:\n  - backup: replace\n    at_time: 1\n") }
    }
}

/// `connections-agree`: writers and readers that keep their connections across a restore must all see the
/// restored store; a restore that renames a new file over the store splits them.
@Suite(.serialized, .ownThread) struct ConnectionsAgreeTests {
    static func scenario(restore: String) -> String {
        """
        name: connections
        store: {objects: 40, blob_fraction: 0}
        writers: {count: 2, transactions: 150, rate: 50, blob_fraction: 0}
        readers: {count: 1, hold: 0.2, every: 0.1, across_restore: keep}
        schedule:
          - backup: replace
            after_commits: 20
        \(restore)
            after_commits: 50
        invariants: [connections-agree]
        expect: pass
        """
    }

    @Test func aRestoreInPlaceKeepsEveryConnectionOnTheStore() throws {
        let (result, _, _) = try TimelineEventTests.run(Self.scenario(restore: "  - restore: file-copy-over"), name: "connections-held")
        let verdict = try #require(result.verdicts.first { $0.invariant == "connections-agree" })
        #expect(verdict.status == .held, "\(verdict.summary) \(verdict.evidence)")
        #expect(verdict.summary.contains("reader-1") && verdict.summary.contains("writer-2"))
    }

    @Test func aRestoreThatRenamesOverTheStoreSplitsTheConnections() throws {
        let command = #"  - restore: command\#n    command: 'cp "$LIFEBOAT_BACKUP" "$LIFEBOAT_STORE.new" && rm -f "$LIFEBOAT_STORE-wal" "$LIFEBOAT_STORE-shm" && mv "$LIFEBOAT_STORE.new" "$LIFEBOAT_STORE"'"#
        let (result, _, _) = try TimelineEventTests.run(Self.scenario(restore: command), name: "connections-split")
        let verdict = try #require(result.verdicts.first { $0.invariant == "connections-agree" })
        #expect(verdict.status == .violated)
        #expect(verdict.evidence.contains { $0.contains("holds the old store: Library.sqlite inode") && $0.contains("(deleted)") }, "\(verdict.evidence)")
    }
}
