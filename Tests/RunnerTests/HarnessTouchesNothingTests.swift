import FaultFS
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The harness never changes what it judges: in drills on FaultFS, once the writers have started, the op log
/// holds no operation by the runner's own process that creates, writes, truncates, renames, removes or syncs
/// anything on the volume (backups on the volume, the live store, a restored store), after a step, after a crash
/// or at the end. Checks read private copies (`StoreSnapshot`); reads of the originals are allowed.
///
/// Drills: the FaultFS ones with backups on the volume or a crash after a restore, and three `cp -a` tool recipes
/// (about a minute in all; `scripts/harness-touches-nothing.sh` runs every FaultFS drill and recipe).
@Suite(.serialized, .ownThread) struct HarnessTouchesNothingTests {
    static let drills = [
        "backup-not-durable.yaml", "restore-script-syncs.yaml", "crash-during-restore.yaml", "bugs/copy-no-sync.yaml",
        "tools/cp-a/crash-during-backup.yaml", "tools/cp-a/crash-after-restore.yaml", "tools/cp-a/restore-over-killed-app.yaml",
    ]

    /// Operations that change a file, a directory entry or what is durable; an `open` for writing too.
    static func changes(_ record: OpRecord) -> Bool {
        if record.op.isEntry || record.op.isData || record.op.isFileSync || record.op == .fsyncdir { return true }
        guard record.op == .open, let detail = record.detail, let hex = detail.split(separator: "x").last,
              let flags = Int32(hex, radix: 16) else { return false }
        return flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC) != 0
    }

    /// The runner's own changes after the writers started, from a drill's op log.
    static func harnessChanges(_ records: [OpRecord], harness: Int32) -> (before: Int, after: [OpRecord]) {
        let start = records.firstIndex { $0.pid != nil && $0.pid != harness } ?? records.count
        let before = records[..<start].filter { $0.pid == harness && changes($0) }.count
        return (before, records[start...].filter { $0.pid == harness && changes($0) })
    }

    @Test(arguments: drills)
    func harnessWritesNothingOnTheVolumeOnceTheWritersRun(_ name: String) throws {
        let scratch = try Scratch("untouched")
        let file = DrillTests.scenarios.appendingPathComponent(name)
        var scenario = try ScenarioParser.parse(file: file)
        scenario.seed = 1
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        settings.keepScratch = true
        let runner = try ScenarioRunner(scenario: scenario, file: file.path, settings: settings)
        let (result, _) = try runner.run()
        #expect(result.expectationMet, "\(name): \(result.verdicts.filter { $0.status == .violated }.map(\.summary))")
        let log = try #require(runner.scratchDirectory?.appendingPathComponent("faultfs.oplog"))
        let records = try OpLog.read(log)
        let (before, after) = Self.harnessChanges(records, harness: getpid())
        // The runner generates the live store on the volume itself: its pid is recognised in the log.
        #expect(before > 0, "\(name): no operation of the runner's pid \(getpid()) found while it generated the store")
        #expect(after.isEmpty, "\(name): the harness changed the volume: \(after.prefix(5).map(\.humanDescription))")
        // The crash the run reports is in the op log (so the changes after it were looked at). cp -a's recipe may
        // meet an attachment deleted while it copies and fail, with no restore to crash after (its drill
        // expects that too): no crash then, in the run or the log; every other drill here crashes.
        let crashed = result.events.contains { $0.kind == .crash }
        #expect(records.contains { $0.op == .crash } == crashed, "\(name): the run \(crashed ? "crashed" : "did not crash"), the op log disagrees")
        if !name.hasPrefix("tools/cp-a/") { #expect(crashed, "\(name): no crash in the run") }
    }

    @Test func aWriteByTheHarnessIsCaught() {
        let harness: Int32 = 100
        let records = [
            OpRecord(seq: 1, t: 0, op: .create, path: "/Library.sqlite", result: 0, pid: harness),
            OpRecord(seq: 2, t: 1, op: .write, path: "/Library.sqlite-wal", result: 4096, pid: 200),
            OpRecord(seq: 3, t: 2, op: .open, path: "/backups/0-1/Library.sqlite", result: 0, detail: "flags=0x8000", pid: harness),
            OpRecord(seq: 4, t: 3, op: .open, path: "/backups/0-1/Library.sqlite-wal", result: 0, detail: "flags=0x8002", pid: harness),
            OpRecord(seq: 5, t: 4, op: .create, path: "/backups/0-1/Library.sqlite-shm", result: 0, pid: harness),
        ]
        let (before, after) = Self.harnessChanges(records, harness: harness)
        #expect(before == 1)
        #expect(after.map(\.seq) == [4, 5])
    }
}

/// A durability finding names its cause from the op log: the backup's entries the crash dropped, the process
/// that made them, the directory fsync that never came, and that the backup is missing (not "not a store").
@Suite(.serialized, .ownThread) struct CrashCauseTests {
    @Test func backupNotDurableSaysWhichEntryWasLostAndThatTheBackupIsMissing() throws {
        let scratch = try Scratch("cause")
        let file = DrillTests.scenarios.appendingPathComponent("backup-not-durable.yaml")
        let (result, directory) = try DrillTests.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch)
        let verdict = try #require(result.verdicts.first { $0.invariant == "backup-durable" })
        #expect(verdict.status == .violated)
        let cause = try #require(verdict.cause, "\(verdict)")
        #expect(cause.contains("create /backups/0-1/Library.sqlite at "), "\(cause)")
        #expect(cause.contains("by backup-0 (lifeboat) was never followed by an fsync of its directory /backups/0-1"), "\(cause)")
        #expect(cause.contains("the crash at ") && cause.hasSuffix("the backup is missing (no /backups/0-1/Library.sqlite after the crash)"), "\(cause)")
        #expect(verdict.summary.contains("missing after the crash") && !"\(verdict.evidence)".contains("not a Core Data"))
        let decoded = try JSONReport.decode(try Data(contentsOf: directory.url.appendingPathComponent("report.json")))
        #expect(decoded.verdicts.first { $0.invariant == "backup-durable" }?.cause == cause, "report.json carries the cause")
        for name in ["report.md", "report.html"] {
            let text = try String(contentsOf: directory.url.appendingPathComponent(name), encoding: .utf8)
            #expect(text.contains("never followed by an fsync of its directory /backups/0-1"), "\(name)")
        }
        let markdown = try String(contentsOf: directory.url.appendingPathComponent("report.md"), encoding: .utf8)
        #expect(markdown.contains("lifeboat replay \(directory.url.path)/repro.yaml"), "the replay hint names the run's real folder")
    }

    @Test func aFindingReplayedCountsHowOftenItCameBack() throws {
        let scratch = try Scratch("reproduce")
        let file = DrillTests.scenarios.appendingPathComponent("bugs/copy-no-sync.yaml")
        let scenario = try ScenarioParser.parse(file: file)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let (result, _) = try ScenarioRunner(scenario: scenario, file: file.path, settings: settings).run()
        let rate = try #require(try FindingReplay.rate(of: result, scenario: scenario, file: file.path, times: 2, settings: settings))
        #expect(rate.invariant == "backup-durable" && rate.times == 2 && rate.reproduced == 2 && rate.text == "reproduced 2/2")
    }
}
