import Foundation
@testable import LifeboatCLI
import Testing

/// The progress line's words: counts, percent, time so far and left (from the mean time per unit so far), and
/// counts read from work that reports its own ("12/40 points").
@Suite struct ProgressTests {
    @Test func statusEstimatesTheTimeLeftFromTheMeanSoFar() {
        let progress = Progress(total: 4, label: "runs", live: false)
        #expect(progress.status(now: progress.started).hasPrefix("[0/4 runs] 0%"))
        progress.step()
        let status = progress.status(now: progress.started.addingTimeInterval(30))
        #expect(status == "[1/4 runs] 25% · 0:30 elapsed · about 1:30 left", "\(status)")
        #expect(Progress.clock(3725) == "1:02:05")
        #expect(Progress.fraction(in: "crash states: 12/40 points, 96 states, 0 failed")! == (12, 40))
        #expect(Progress.fraction(in: "no counts here") == nil)
        let open = Progress(total: nil, label: "Ns", live: false)
        open.step()
        #expect(open.status(now: open.started.addingTimeInterval(5)) == "[1 Ns] · 0:05 elapsed")
    }

    /// Work measured in bytes (generate --size): counts read as sizes, and the line fits the terminal.
    @Test func bytesReadAsSizesAndLinesFitTheTerminal() {
        let progress = Progress(total: 1_000_000_000, label: "written", unit: .bytes, live: false)
        progress.set(done: 412_000_000)
        let status = progress.status(now: progress.started.addingTimeInterval(10))
        #expect(status.hasPrefix("[412 MB/1.0 GB written] 41% · 0:10 elapsed · about 0:14 left"), "\(status)")
        #expect(Progress.bytes(999) == "999 B" && Progress.bytes(1_500_000) == "1.5 MB" && Progress.bytes(64_000_000_000) == "64 GB")
        #expect(Progress.fit(String(repeating: "x", count: 200), columns: 80).count == 80)
        #expect(Progress.fit("short", columns: 80) == "short")
    }
}

/// docs/cli.md is the commands' own help: regenerate it with scripts/gen-cli-doc.sh when a command changes.
@Suite struct CLIReferenceTests {
    @Test func theReferenceIsNotStale() throws {
        let file = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("docs/cli.md")
        let text = try String(contentsOf: file, encoding: .utf8)
        #expect(text == CLIReference.markdown(), "docs/cli.md is stale: run scripts/gen-cli-doc.sh")
        #expect(text.contains("## lifeboat try") && text.contains("--backup <command>"))
    }
}
