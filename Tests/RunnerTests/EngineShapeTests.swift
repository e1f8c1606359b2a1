import Foundation
import Testing

/// The engine's shape, read from the sources (docs/architecture.md): its parts are types of their own, so no
/// file extends the engine; an event kind never sees the engine; the run's one record is written in one place
/// (`RunJournal`, with the engine's last step) and everything else hands it `RunRecord.Entry` values; one
/// file parses fault text; and a schedule entry's keys are typed, not text in a map.
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

    /// The bodies of the declarations in `text` whose line contains `opening` (`public struct Step`,
    /// `extension Scenario.Step`), from that line to its closing brace; comment lines are not counted.
    static func bodies(_ opening: String, in text: String) -> [String] {
        var found: [String] = []
        var current: [Substring]?
        var depth = 0
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.contains(opening) { (current, depth) = ([], 0) }
            guard current != nil else { continue }
            current?.append(line)
            if line.trimmingCharacters(in: .whitespaces).hasPrefix("//") { continue }
            depth += line.filter { $0 == "{" }.count - line.filter { $0 == "}" }.count
            if depth <= 0, line.contains("}") {
                found.append(current!.joined(separator: "\n"))
                current = nil
            }
        }
        return found
    }

    /// Whether one of the `Scenario.Step` declarations in `text` (the struct, or an extension of it) has a
    /// property named `options`.
    static func stepDeclaresOptions(_ text: String) -> Bool {
        (bodies("public struct Step", in: text) + bodies("extension Scenario.Step", in: text)).contains {
            $0.range(of: #"\b(var|let)\s+options\b"#, options: .regularExpression) != nil
        }
    }

    /// A schedule entry's keys are typed by its kind (`Scenario.StepDetails`, each payload in the kind's file):
    /// no source reads a key back as text with `.options[` (the map of text `Scenario.Step` had, the only map of
    /// that name in Sources), and neither `Step` nor an extension of it declares `options` again.
    @Test func stepKeysAreTypedNotText() throws {
        let reads = try Self.places(under: "") { $0.contains(".options[") }
        #expect(reads.isEmpty, "\(reads)")
        let root = Self.sources.appendingPathComponent("Scenario")
        let files = try #require(FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil))
        var declaring: [String] = []
        var stepDeclarations = 0
        for case let file as URL in files where file.pathExtension == "swift" {
            let text = try String(contentsOf: file, encoding: .utf8)
            stepDeclarations += Self.bodies("public struct Step", in: text).count + Self.bodies("extension Scenario.Step", in: text).count
            if Self.stepDeclaresOptions(text) { declaring.append(file.lastPathComponent) }
        }
        #expect(declaring.isEmpty, "\(declaring)")
        // The struct and the kinds' accessors are found, so an empty result is not a search that saw nothing.
        #expect(stepDeclarations >= 7, "\(stepDeclarations)")
        // And the check sees the old property where it was.
        #expect(Self.stepDeclaresOptions("""
            public struct Step: Sendable {
                public var strategy: String
                /// Keys of kinds other than backup and restore, as their text.
                public var options: [String: String] = [:]
            }
            """))
        #expect(Self.stepDeclaresOptions("extension Scenario.Step {\n    var options: [String: String] { [:] }\n}"))
        #expect(!Self.stepDeclaresOptions("public struct Step {\n    public var details: StepDetails = .none\n}\nvar options = 1"))
    }

    @Test func oneFileParsesFaultText() throws {
        let parsers = try Self.places(under: "") { $0.contains("FaultWords.split") }
        #expect(Set(parsers.map { $0.split(separator: ":")[0] }) == ["FaultText.swift"], "\(parsers)")
    }
}
