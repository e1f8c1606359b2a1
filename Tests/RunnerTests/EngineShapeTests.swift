import Foundation
import Testing

/// The engine's shape, read from the sources (docs/architecture.md): its parts are types of their own, so no
/// file extends the engine; an event kind never sees the engine; the run's one record is written in one place
/// (`RunJournal`, with the engine's last step) and everything else hands it `RunRecord.Entry` values; and one
/// file parses fault text.
@Suite struct EngineShapeTests {
    static let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources")

    /// Every Swift line of the sources under `folder` that matches, as `File.swift:line`.
    static func places(under folder: String, _ matches: (Substring) -> Bool) throws -> [String] {
        var found: [String] = []
        let root = sources.appendingPathComponent(folder)
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() where matches(line) {
                found.append("\(file.lastPathComponent):\(index + 1)")
            }
        }
        return found.sorted()
    }

    @Test func noFileExtendsTheEngine() throws {
        #expect(try Self.places(under: "") { $0.contains("extension ScenarioRunner") }.isEmpty)
    }

    @Test func noEventKindSeesTheEngine() throws {
        #expect(try Self.places(under: "Runner/Events") { $0.contains("ScenarioRunner") || $0.contains("context.engine") }.isEmpty)
        #expect(try Self.places(under: "Runner/Timeline") { $0.contains("let engine") }.isEmpty)
    }

    /// A field of the record is assigned or appended to only in the journal and at the engine's last step
    /// (`RunEnd`, inside `RunJournal.complete`).
    @Test func theRecordIsWrittenInOnePlace() throws {
        let writes = try Self.places(under: "Runner") { line in
            line.range(of: #"\brecord\.[A-Za-z0-9_.?\[\]]* *(=[^=]|\+=)|\brecord\.[A-Za-z0-9_.?\[\]]*\.append\("#, options: .regularExpression) != nil
        }
        let allowed = writes.filter { $0.hasPrefix("RunJournal.swift:") || $0.hasPrefix("RunEnd") || $0.hasPrefix("ScenarioRunner.swift:") }
        #expect(writes == allowed, "\(Set(writes).subtracting(allowed).sorted())")
        // The engine's own writes are its last step: the completion closure.
        let engine = writes.filter { $0.hasPrefix("ScenarioRunner.swift:") }
        #expect(engine.count <= 4, "\(engine)")
    }

    /// A lifeboat child of a run gets one JSON configuration, read through `ChildConfig` (`writer`, `reader`,
    /// `store-op`, `step`, `mirror-step`): no argv is built by hand and parsed back. The one other argv the engine
    /// writes is a sidecar's `sh -c COMMAND`, the user's own program.
    @Test func everyChildOfARunGetsOneConfig() throws {
        let handBuilt = try Self.places(under: "Runner") { $0.contains(#"["mirror""#) || $0.contains(#""mirror", "#) }
        #expect(handBuilt.isEmpty, "\(handBuilt)")
        let argv = try Self.places(under: "Runner/Events") { $0.contains(#"arguments: [""#) }
            + Self.places(under: "Runner/Engine") { $0.contains(#"arguments: [""#) }
        let withConfig = try Self.places(under: "Runner/Events") { $0.contains(#"arguments: [""#) && $0.contains(#""--config""#) }
            + Self.places(under: "Runner/Engine") { $0.contains(#"arguments: [""#) && ($0.contains(#""--config""#) || $0.contains(#"["-c", sidecar.command]"#)) }
        #expect(argv.count >= 5 && argv.sorted() == withConfig.sorted(), "\(Set(argv).subtracting(withConfig).sorted())")
        let mirrorChild = try String(contentsOf: Self.sources.appendingPathComponent("Runner/Events/MirrorChild.swift"), encoding: .utf8)
        #expect(mirrorChild.contains(#"["mirror-step", "--config", config.path]"#))
    }

    @Test func oneFileParsesFaultText() throws {
        let parsers = try Self.places(under: "") { $0.contains("FaultWords.split") }
        #expect(Set(parsers.map { $0.split(separator: ":")[0] }) == ["FaultText.swift"], "\(parsers)")
    }
}
