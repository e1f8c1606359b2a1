import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Runner
import Testing

/// `lifeboat matrix --shard K/N` and `lifeboat report merge`: a matrix cut in two shards and merged gives the
/// matrix.json, matrix.md and matrix.html one unsharded matrix writes, and a merge that would lose or repeat a run
/// is refused with nothing written. Real runs: a `cp` of the database file alone, idle (held) and with the app's
/// commits in the -wal (caught: wal-content-carried), under the `turns` scheduler so each seed's run is the same
/// every time; and a recipe whose tool is not installed (its runs "not run", made without running).
@Suite(.serialized, .ownThread) struct MatrixShardMergeTests {
    static func makeRecipes(in scratch: Scratch) throws -> URL {
        let root = scratch.path("recipes")
        for folder in ["_shared", "cp-db-only", "not-installed"] {
            try FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let files = [
            "_shared/base.yaml": """
                store: {objects: 40, blob_fraction: 0}
                writers: {count: 1, transactions: 40, rate: 0, blob_fraction: 0, checkpoint: none}
                scheduler: turns
                time_limit: 60
                """,
            "cp-db-only/idle.yaml": """
                name: cp-db-only-idle
                description: "idle: cp of the database file"
                extends: ../_shared/base.yaml
                writers: {count: 0}
                schedule:
                  - backup: command
                    command: sh "$LIFEBOAT_SCENARIO_DIR/backup.sh"
                expect: pass
                """,
            "cp-db-only/live-wal.yaml": """
                name: cp-db-only-live-wal
                description: "live-wal: cp of the database file"
                extends: ../_shared/base.yaml
                schedule:
                  - backup: command
                    command: sh "$LIFEBOAT_SCENARIO_DIR/backup.sh"
                    after_commits: 20
                expect: violation wal-content-carried
                """,
            "cp-db-only/backup.sh": "cp \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR/\"\n",
            "cp-db-only/version.sh": "cp --version | head -1\n",
            "not-installed/idle.yaml": """
                name: not-installed-idle
                extends: ../_shared/base.yaml
                writers: {count: 0}
                schedule:
                  - backup: command
                    command: no-such-backup-tool "$LIFEBOAT_STORE"
                expect: pass
                """,
            "not-installed/version.sh": "no-such-backup-tool --version\n",
        ]
        for (name, text) in files { try text.write(to: root.appendingPathComponent(name), atomically: true, encoding: .utf8) }
        return root
    }

    /// The folder `reports/latest` points at.
    static func latest(_ reports: URL) throws -> URL {
        reports.appendingPathComponent(try FileManager.default.destinationOfSymbolicLink(atPath: reports.appendingPathComponent("latest").path))
    }

    static let pages = ["matrix.json", "matrix.md", "matrix.html"]

    @Test func aMatrixInTwoShardsMergesIntoTheMatrixOfOneRun() async throws {
        let scratch = try Scratch("matrix-shards")
        let recipes = try Self.makeRecipes(in: scratch)
        func matrix(_ label: String, _ extra: [String]) async throws -> (URL, Int32) {
            let reports = scratch.path("reports-\(label)")
            let code = await LifeboatMain.run(["matrix", recipes.path, "--seeds", "1,2", "--reports", reports.path,
                                               "--scratch", scratch.path("scratch-\(label)").path] + extra)
            return (try Self.latest(reports), code)
        }
        // A tool not installed makes the matrix exit 2, sharded or not: its cells are "not run".
        let (whole, wholeCode) = try await matrix("whole", [])
        let (first, firstCode) = try await matrix("1", ["--shard", "1/2"])
        let (second, secondCode) = try await matrix("2", ["--shard", "2/2"])
        #expect(wholeCode == 2 && firstCode == 2 && secondCode == 2)
        // Named as a matrix folder is (its name is the merged matrix's id), so the id is all that differs.
        let merged = scratch.path("reports-merged/matrix-20260101-000000-abcdef")
        let mergeCode = await LifeboatMain.run(["report", "merge", first.path, second.path, "--out", merged.path])
        #expect(mergeCode == 2, "the merged matrix exits as the whole one: a tool not installed")
        let roots = [whole, first, second, merged] + ["whole", "1", "2"].map { scratch.path("scratch-\($0)") }
        let differences = try PageComparison.differences(whole, merged, files: Self.pages, roots: roots)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")

        // Every case once: 2 seeds of 3 cells, each shard with its half (cases 1, 3, 5 and 2, 4, 6).
        let (result, plan) = try MatrixMerge.read(merged)
        #expect(plan.shard == nil && plan.cases.count == 6)
        #expect(result.cells.map { "\($0.recipe) \($0.situation) \($0.runs.map(\.seed))" }
                == ["cp-db-only idle [1, 2]", "cp-db-only live-wal [1, 2]", "not-installed idle [1, 2]"])
        let live = try #require(result.cells.first { $0.situation == "live-wal" })
        #expect(live.caughtRuns.count == 2 && live.violated.contains("wal-content-carried"))
        for part in [first, second] { #expect(try MatrixMerge.read(part).0.cells.flatMap(\.runs).count == 3) }
        // Every run folder and repro the merged matrix names is in it.
        for run in result.cells.flatMap(\.runs) where !run.report.isEmpty {
            #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent(run.report + "/report.json").path), "\(run.report)")
        }
        for repro in result.cells.flatMap(\.runs).compactMap(\.repro) {
            #expect(FileManager.default.fileExists(atPath: merged.appendingPathComponent(repro).path), "\(repro)")
        }
        // The comparison sees a lost or repeated run: the same matrix with one run dropped, or one run twice, differs.
        var lost = result
        lost.cells[1].runs.removeLast()
        var doubled = result
        doubled.cells[0].runs.append(doubled.cells[0].runs[0])
        let page = try String(contentsOf: merged.appendingPathComponent("matrix.md"), encoding: .utf8)
        for changed in [lost, doubled] {
            #expect(PageComparison.firstDifference(page, ToolMatrixReport.markdown(changed, links: ""), roots: roots) != nil)
        }

        try await refusals(first: first, second: second, whole: whole, scratch: scratch)
    }

    /// `try --shard`: each shard's folder holds its own copy of the situations (`scenarios/`), so the plan names
    /// them by content, not path; merged, the page is the unsharded try's.
    @Test func aTryInTwoShardsMergesIntoTheTryOfOneRun() async throws {
        let scratch = try Scratch("try-shards")
        func attempt(_ label: String, _ extra: [String]) async throws -> (URL, Int32) {
            let reports = scratch.path("reports-\(label)")
            let code = await LifeboatMain.run(["try", "--backup", "cp \"$LIFEBOAT_STORE\" \"$LIFEBOAT_BACKUP_DIR/\"", "--situations", "idle",
                                               "--seeds", "1-3", "--reports", reports.path, "--scratch", scratch.path("scratch-\(label)").path] + extra)
            return (try Self.latest(reports), code)
        }
        let (whole, wholeCode) = try await attempt("whole", [])
        let (first, _) = try await attempt("1", ["--shard", "1/2"])
        let (second, _) = try await attempt("2", ["--shard", "2/2"])
        let merged = scratch.path("reports-merged/try-20260101-000000-abcdef")
        #expect(await LifeboatMain.run(["report", "merge", first.path, second.path, "--out", merged.path]) == wholeCode)
        let roots = [whole, first, second, merged] + ["whole", "1", "2"].map { scratch.path("scratch-\($0)") }
        let differences = try PageComparison.differences(whole, merged, files: Self.pages, roots: roots)
        #expect(differences.isEmpty, "\(differences.joined(separator: "\n"))")
        let (result, _) = try MatrixMerge.read(merged)
        #expect(result.cells.map { $0.runs.map(\.seed) } == [[1, 2, 3]])
        let situations = try FileManager.default.contentsOfDirectory(atPath: result.directory)
        #expect(result.directory.hasPrefix(merged.path) && !situations.isEmpty, "\(result.directory)")
        #expect(try [first, second].map { try MatrixMerge.read($0).0.cells.flatMap(\.runs).map(\.seed) } == [[1, 3], [2]])
    }

    /// Merges that would lose or repeat a run exit 2 and write nothing.
    func refusals(first: URL, second: URL, whole: URL, scratch: Scratch) async throws {
        func refused(_ folders: [URL], _ label: String) async {
            let out = scratch.path("refused-\(label)")
            #expect(await LifeboatMain.run(["report", "merge"] + folders.map(\.path) + ["--out", out.path]) == 2, "\(label)")
            #expect(!FileManager.default.fileExists(atPath: out.appendingPathComponent("matrix.json").path), "\(label): nothing written")
        }
        await refused([first], "a shard missing")
        await refused([first, first], "the same shard twice")
        await refused([first, whole], "a shard and the whole")
        // A shard whose matrix.json was given a run of the other shard: that case is in two folders.
        let tampered = scratch.path("tampered")
        try FileManager.default.copyItem(at: second, to: tampered)
        var (result, _) = try MatrixMerge.read(tampered)
        let (other, _) = try MatrixMerge.read(first)
        result.cells[0].runs.insert(other.cells[0].runs[0], at: 0)
        try Data(try ToolMatrixReport.json(result).utf8).write(to: tampered.appendingPathComponent("matrix.json"))
        await refused([first, tampered], "a run in two folders")
        // And one whose run was dropped: that case is in no folder.
        var dropped = try MatrixMerge.read(second).0
        dropped.cells[0].runs.removeAll()
        try Data(try ToolMatrixReport.json(dropped).utf8).write(to: tampered.appendingPathComponent("matrix.json"))
        await refused([first, tampered], "a run in no folder")
        // And one whose run folder was not copied with it: refused before the merged folder is made at all.
        let partial = scratch.path("partial")
        try FileManager.default.copyItem(at: second, to: partial)
        let run = try #require(try MatrixMerge.read(partial).0.cells.flatMap(\.runs).first { !$0.report.isEmpty })
        try FileManager.default.removeItem(at: partial.appendingPathComponent(run.report))
        await refused([first, partial], "a run folder missing")
        #expect(!FileManager.default.fileExists(atPath: scratch.path("refused-a run folder missing").path))
    }
}
