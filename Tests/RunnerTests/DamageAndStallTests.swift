import Checks
import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The `damage` entry and the writers' commit latency, run for real (issue 30, points 1 and 3): the damage is
/// drawn from the seed, recorded with its bytes, and the same seed damages the same bytes again; a backup that
/// holds the write lock for 2 s shows a stall of about that length during its window, and a reading copy none.
@Suite(.serialized, .ownThread) struct DamageAndStallTests {
    static func run(_ yaml: String, name: String) throws -> RunRecord { try runWithReports(yaml, name: name).0 }

    /// The run's record and its report.md (read here: the scratch folder goes when `Scratch` does).
    static func runWithReports(_ yaml: String, name: String) throws -> (RunRecord, String) {
        let scratch = try Scratch(name)
        let file = scratch.path("\(name).yaml")
        try yaml.write(to: file, atomically: true, encoding: .utf8)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        let (_, directory) = try ScenarioRunner(scenario: try ScenarioParser.parse(file: file), file: file.path, settings: settings).run()
        return (try RecordFile.read(directory.url.appendingPathComponent(RecordFile.name)),
                try String(contentsOf: directory.url.appendingPathComponent("report.md"), encoding: .utf8))
    }

    static let scripts = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios/scripts").path

    /// A backup through the copy strategy, damaged, then copied back as it is (`restore-plain-copy.sh`).
    static func damaging(_ kind: String, place: String?) -> String {
        """
        name: damage-\(kind)
        seed: 11
        store: {objects: 80, blob_fraction: 0.3, blob_size: 110KiB}
        writers: {count: 1, transactions: 20, rate: 100, blob_fraction: 0, checkpoint: none}
        schedule:
          - backup: replace
            after_writers: true
          - damage: {target: backup 0, kind: \(kind)\(place.map { ", where: \($0)" } ?? "")}
            after_step: 0
          - restore: command
            command: sh '\(scripts)/restore-plain-copy.sh'
            after_step: 1
        invariants: [restore-detects-damage]
        expect: violation restore-detects-damage
        """
    }

    @Test(arguments: [("truncate", "main"), ("zero-page", "header"), ("drop-attachment", nil)] as [(String, String?)])
    func theDamageIsSeededRecordedAndReplays(_ kind: String, _ place: String?) throws {
        let first = try Self.run(Self.damaging(kind, place: place), name: "damage-\(kind)-1")
        let damage = try #require(first.damages.first)
        #expect(damage.applied && damage.kind == kind && damage.target == "backup-0" && damage.place == place, "\(damage)")
        #expect(damage.file != nil && damage.fileBytes != nil && damage.undamagedCopy != nil, "\(damage)")
        let again = try Self.run(Self.damaging(kind, place: place), name: "damage-\(kind)-2")
        var replayed = try #require(again.damages.first)
        (replayed.at, replayed.undamagedCopy) = (damage.at, damage.undamagedCopy)
        if kind == "drop-attachment" {
            // Core Data names attachment files with fresh UUIDs: the same owner's file is the replay.
            #expect(damage.owner != nil && replayed.owner == damage.owner, "\(String(describing: damage.owner)) vs \(String(describing: replayed.owner))")
            replayed.file = damage.file
        }
        #expect(replayed == damage, "the same seed damages the same bytes")
        // The restore copied the damaged backup back without a look: caught.
        let verdict = Judge.judge(first).verdicts.first { $0.invariant == "restore-detects-damage" }
        #expect(verdict?.status == .violated, "\(String(describing: verdict))")
    }

    static func stalling(_ command: String) -> String {
        """
        name: stall
        store: {objects: 100, blob_fraction: 0}
        writers: {count: 2, transactions: 150, rate: 40, blob_fraction: 0, checkpoint: auto, synchronous: normal}
        schedule:
          - backup: command
            command: \(command)
            after_commits: 30
        invariants: [live-store-unaffected]
        expect: pass
        """
    }

    @Test func aBackupHoldingTheWriteLockShowsAsAStallAndAReadingCopyDoesNot() throws {
        let script = Self.scripts + "/backup-holding-write-lock.py"
        let (blocking, markdown) = try Self.runWithReports(Self.stalling("python3 '\(script)' 2"), name: "stall-blocking")
        #expect(markdown.contains("## Commit latency during each step") && markdown.contains("| backup-0 |"), "\(markdown)")
        let stall = try #require(blocking.stalls.first { $0.step == "backup-0" })
        #expect(stall.commits > 0 && (stall.longest ?? 0) >= 1.5, "\(stall.summary)")
        #expect((stall.longestAt ?? 0) >= stall.start - 0.5 && (stall.longestAt ?? .infinity) <= stall.end, "\(stall)")
        let reading = try Self.run(Self.stalling(#"sqlite3 "$LIFEBOAT_STORE" ".backup '$LIFEBOAT_BACKUP_DIR/Library.sqlite'""#), name: "stall-reading")
        let calm = try #require(reading.stalls.first { $0.step == "backup-0" })
        #expect((calm.longest ?? 0) < 1.0, "\(calm.summary)")
    }
}
