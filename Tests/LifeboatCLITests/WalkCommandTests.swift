import Foundation
import LifeboatCLI
import LifeboatTestSupport
import Testing

/// `lifeboat walk`: bad options exit 2 before anything runs; a short walk runs, writes its table and exits 0.
@Suite struct WalkCommandTests {
    @Test func badOptionsExitTwo() async throws {
        let scratch = try Scratch("walk-cli")
        let file = scratch.path("s.yaml")
        try "name: s\nstore: {objects: 10, blob_fraction: 0}\nwriters: {count: 1, transactions: 1, blob_fraction: 0}\nfaults: {mount: true}\n"
            .write(to: file, atomically: true, encoding: .utf8)
        for options in [["--shard", "3/2"], ["--shard", "x"], ["--ops", "teleport"], ["--action", "crash sideways"], ["--action", "hold"], ["--action", "errno EWHAT"], ["--from", "0"],
                        ["--from", "5", "--max", "2"]] {
            #expect(await LifeboatMain.run(["walk", file.path] + options + ["--reports", scratch.path("r").path]) == 2, "\(options)")
        }
        #expect(await LifeboatMain.run(["walk", scratch.path("missing.yaml").path]) == 2)
    }

    @Test func aShortWalkWritesItsTableAndExitsZero() async throws {
        let scratch = try Scratch("walk-cli-run")
        let file = scratch.path("s.yaml")
        try """
        name: s
        scheduler: turns
        store: {objects: 10, blob_fraction: 0}
        writers: {count: 1, transactions: 1, blob_fraction: 0, checkpoint: none}
        faults: {mount: true}
        invariants: [integrity]
        """.write(to: file, atomically: true, encoding: .utf8)
        let directory = scratch.path("walk")
        #expect(await LifeboatMain.run(["walk", file.path, "--ops", "fsync", "--path", "*.sqlite-wal", "--max", "2", "--directory", directory.path,
                                        "--reports", scratch.path("r").path, "--scratch", scratch.path("s").path]) == 0)
        let markdown = try String(contentsOf: directory.appendingPathComponent("walk.md"), encoding: .utf8)
        #expect(markdown.contains("| 1 | fdatasync /Library.sqlite-wal by writer-1 | held") && markdown.contains("reached --max 2"))
    }
}
