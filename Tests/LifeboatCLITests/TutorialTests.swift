import ChildProcesses
import Foundation
import LifeboatTestSupport
import Runner
import Testing

/// docs/tutorial.md cannot rot: its `sh` blocks run here, in order, in one scratch directory, with the built
/// `lifeboat` first on PATH; each must end with the exit code its `# exit N` comment names (0 otherwise).
@Suite struct TutorialTests {
    static let tutorial = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs/tutorial.md")

    /// The `sh` fenced blocks of a Markdown text, in order.
    static func shellBlocks(_ markdown: String) -> [String] {
        var blocks: [String] = []
        var current: [String]?
        for line in markdown.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line == "```sh" { current = [] } else if current != nil, line == "```" {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else { current?.append(String(line)) }
        }
        return blocks
    }

    @Test func theTutorialsCommandsDoWhatItSays() throws {
        let blocks = Self.shellBlocks(try String(contentsOf: Self.tutorial, encoding: .utf8))
        #expect(blocks.count >= 4)
        let scratch = try Scratch("tutorial")
        let bin = try LifeboatExecutable.locate().deletingLastPathComponent().path
        let path = "\(bin):\(ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")"
        var outputs: [String] = []
        for (index, block) in blocks.enumerated() {
            let expected = block.range(of: #"# exit (\d)"#, options: .regularExpression)
                .flatMap { Int32(block[$0].last.map(String.init) ?? "") } ?? 0
            let spec = ChildSpec(name: "tutorial-\(index)", executable: "/bin/sh", arguments: ["-c", "cd \"$TUTORIAL_DIR\" && " + block],
                                 environment: ["PATH": path, "TUTORIAL_DIR": scratch.url.path])
            let outcome = try ChildProcesses.run(spec, timeout: 600)
            outputs.append(outcome.output)
            #expect(outcome.termination.exitCode == expected, "block \(index + 1) ended with \(outcome.termination.exitCode), not \(expected):\n\(block)\n\(outcome.output.suffix(2000))")
        }
        #expect(outputs.contains { $0.contains("CAUGHT wal-content-carried") }, "the buggy script is caught")
        #expect(outputs.contains { $0.contains("attachments           held") }, "the fixed script holds")
    }
}
