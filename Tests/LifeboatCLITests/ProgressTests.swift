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
