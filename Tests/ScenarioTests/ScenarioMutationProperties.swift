import Foundation
import LifeboatTestSupport
import PropertyBased
import Scenario
import Testing

/// No scenario file crashes or hangs the parser: mutants of every shipped scenario (extreme numbers, wrong
/// types, deletions, garbage) either parse into a scenario whose numbers are in range or are refused with a
/// message at file:line:column, quickly, and neither the mutant nor the files it extends are changed.
@Suite struct ScenarioMutationProperties {
    static let shipped = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Scenarios")

    /// A private copy of Scenarios/ (mutants are written beside the files they extend, never into the repository).
    static func copy(_ scratch: Scratch) throws -> (URL, [String]) {
        let root = scratch.path("Scenarios")
        try FileManager.default.copyItem(at: shipped, to: root)
        let files = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".yaml") }.sorted()
        return (root, files)
    }

    static func digest(_ root: URL) -> [String: Data] {
        var result: [String: Data] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: root.path) else { return [:] }
        for case let name as String in enumerator {
            if let data = FileManager.default.contents(atPath: root.appendingPathComponent(name).path) { result[name] = data }
        }
        return result
    }

    @Test func mutantsOfTheShippedScenariosParseOrAreRefusedWithAPosition() async throws {
        let scratch = try Scratch("scenario-mutants")
        let (root, files) = try Self.copy(scratch)
        #expect(files.count >= 20)
        let before = Self.digest(root)
        await propertyCheck(count: 300, input: Gen.int(in: 0...(files.count - 1)), Gen.uint64(in: 0...UInt64.max)) { fileIndex, seed in
            let original = root.appendingPathComponent(files[fileIndex])
            guard let text = try? String(contentsOf: original, encoding: .utf8) else { Issue.record("cannot read \(original.path)"); return }
            let mutant = original.deletingLastPathComponent().appendingPathComponent("_mutant.yaml")
            let mutated = ScenarioMutation.mutate(text, seed: seed)
            guard (try? mutated.write(to: mutant, atomically: true, encoding: .utf8)) != nil else { Issue.record("cannot write the mutant"); return }
            defer { try? FileManager.default.removeItem(at: mutant) }
            let started = Date()
            do {
                let scenario = try ScenarioParser.parse(file: mutant)
                #expect(scenario.writers.blobSize <= ByteSizeText.maximumValueSize && scenario.store.blobSize <= ByteSizeText.maximumValueSize)
                #expect(scenario.schedule.allSatisfy { ($0.everyCommits ?? 1) <= ScenarioParser.maximumCommits && $0.pagesPerStep != 0 })
                #expect(scenario.timeLimit.isFinite && scenario.writers.rate.isFinite)
            } catch let error as ScenarioError {
                #expect(error.line >= 1 && error.column >= 1 && !error.message.isEmpty, "\(error)")
                #expect("\(error)".contains("_mutant.yaml") || "\(error)".contains(".yaml"), "\(error)")
            } catch {
                Issue.record("mutant of \(files[fileIndex]) (seed \(seed)) threw \(type(of: error)), not a ScenarioError: \(error)")
            }
            #expect(Date().timeIntervalSince(started) < 5, "mutant of \(files[fileIndex]) (seed \(seed)) took too long to parse")
            #expect(FileManager.default.contents(atPath: mutant.path) == Data(mutated.utf8), "the parser changed its input")
        }
        #expect(Self.digest(root) == before, "parsing changed a scenario file")
    }
}
