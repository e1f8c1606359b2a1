import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing
@testable import Explore

/// A point where the program never returns (issue 39, point 5): `Fixtures/Deep/backup-hangs-on-a-short-write.sh`
/// waits for good when the one write of its manifest comes back short, and only then. The whole deep search runs:
/// that one point is stopped at its run's time limit, named hung with the write its fault fired on, its processes
/// and its FaultFS volume gone, and every other point is still searched (the search is complete, not cut short
/// with an error).
@Suite(.serialized, .ownThread) struct DeepHungPointTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/Deep")

    @Test func aPointThatNeverReturnsIsNamedHungAndTheSearchGoesOn() throws {
        let scratch = try Scratch("deep-hung")
        let program = TryProgram.Program(backup: "sh \(Self.fixtures.appendingPathComponent("backup-hangs-on-a-short-write.sh").path)",
                                         restore: nil, store: nil)
        let recipe = try TryProgram.recipe(for: program, at: scratch.path("scenarios"), workingDirectory: scratch.url, only: ["idle"]).recipe
        let situation = try #require(recipe.situations.first)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        // The floor of a point's time (six times the probe's when that is more, so a loaded machine gives more).
        let search = DeepSearch(situation: situation.scenario, file: situation.file.path, directory: scratch.path("deep"),
                                settings: settings, minimumPointSeconds: 20)
        let summary = try search.run(deadline: nil, planned: { _ in }, progress: { _ in })

        #expect(summary.incomplete == nil, "the hang did not end the search: \(summary.incomplete ?? "")")
        #expect(summary.covered == summary.total, "every point was searched: \(DeepSearch.coverage(summary))")
        let limit = try #require(summary.pointSeconds?["backup"])
        #expect(limit >= 20 && limit <= situation.scenario.timeLimit)
        // Hung exactly where the script waits: a short write of its manifest, and nowhere else (an error stops it).
        #expect(summary.hung?.count == 1, "\((summary.hung ?? []).map { "\($0.walk) N=\($0.n): \($0.operation)" })")
        let hung = try #require(summary.hung?.first)
        #expect(hung.walk == "backup: short-write 1 at write", "\(hung.walk)")
        #expect(hung.operation.hasPrefix("write /backups/") && hung.operation.contains("/manifest.txt")
                && hung.operation.contains("by backup-1 (python3)"), "the call its fault fired on, and whose: \(hung.operation)")
        let sentence = try #require(hung.evidence.first)
        #expect(sentence.contains("never returned") && sentence.contains("time limit of \(Int(limit)) s"), "\(sentence)")
        #expect(!summary.findings.contains { $0.walk == hung.walk && $0.n == hung.n }, "a hung point is not an invariant's finding")

        // The walk's own table has the row, and the Ns after it were walked.
        let walkFolder = scratch.path("deep").appendingPathComponent("backup-short-write-1-write")
        let state = try #require(try FaultWalk.load(walkFolder))
        let row = try #require(state.rows.first { $0.outcome == FaultWalk.hung })
        #expect(row.fired && row.hit?.op == "write" && row.violated.isEmpty)
        #expect(state.finished != nil, "the walk ended as walks end, past its last N")

        // The input/output table: a complete search gave every reachable answer to every kind of call it made.
        let cells = try #require(summary.ioCoverage?["backup"])
        #expect(cells.contains { $0.op == .write && $0.answer == .errno(.EDQUOT) && $0.status == .faulted })
        #expect(cells.contains { $0.op == .fsync && $0.answer == .errno(.EINTR) && $0.status == .unreachable })
        #expect(cells.allSatisfy { $0.status != .notTried }, "\(cells.filter { $0.status == .notTried }.map { "\($0.op.rawValue) \($0.answer)" })")

        // On the page and in the JSON.
        let page = try String(contentsOf: scratch.path("deep/deep.md"), encoding: .utf8)
        #expect(page.contains("## Hung points") && page.contains("**hung** at \(hung.walk), N=\(hung.n)"), "\(page)")
        #expect(page.contains("## Input/output coverage") && page.contains("| write | met ("), "\(page)")
        let json = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: scratch.path("deep/deep.json"))) as? [String: Any])
        #expect((json["hung"] as? [[String: Any]])?.count == 1)

        // Stopped cleanly: no process of the runs is left (the script's python3 waits in a sleep that only a kill
        // ends), and no FaultFS volume of theirs is mounted.
        let root = scratch.url.path
        let mounts = try String(contentsOfFile: "/proc/mounts", encoding: .utf8)
        #expect(!mounts.contains(root), "a volume of the search is still mounted")
        let left = try FileManager.default.contentsOfDirectory(atPath: "/proc").filter { Int32($0) != nil }.filter { pid in
            guard let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return false }
            return String(decoding: environment, as: UTF8.self).contains(root)
        }
        #expect(left.isEmpty, "processes of the search still running: \(left)")
    }
}
