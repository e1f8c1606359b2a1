import Foundation
import Scenario
import Testing

/// `store: {fresh: true}`: no store before the run. Parsed, rendered back the same (a repro must start from no
/// store too), and refused with the key's line and column beside anything that describes a store to generate or copy.
@Suite struct FreshStoreKeyTests {
    @Test func freshParsesNormalisesAndRendersBack() throws {
        #expect(try ScenarioParser.parse(yaml: "name: plain\n").store.fresh == false)
        let scenario = try ScenarioParser.parse(yaml: "name: fresh\nstore: {fresh: true, journal_mode: delete}\n")
        #expect(scenario.store.fresh)
        #expect(scenario.store.objects == 0, "nothing is generated")
        #expect(scenario.store.journalMode == "delete", "the writers create the store in the mode asked for")
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario)) == scenario)
        #expect(try ScenarioParser.parse(yaml: "name: zero\nstore: {fresh: true, objects: 0}\n").store.fresh)
    }

    /// A base that generates objects (as `_defaults.yaml` does) is overridden by `fresh: true`; a file that sets
    /// `objects` beside a fresh base is refused.
    @Test func freshOverridesAGeneratingBaseAndRefusesObjectsOverAFreshOne() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fresh-keys-\(UUID().uuidString.prefix(8))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try "store: {objects: 300, blob_fraction: 0.2, blob_size: 110KiB}\n".write(to: folder.appendingPathComponent("_base.yaml"), atomically: true, encoding: .utf8)
        try "name: child\nextends: _base.yaml\nstore: {fresh: true}\n".write(to: folder.appendingPathComponent("child.yaml"), atomically: true, encoding: .utf8)
        let child = try ScenarioParser.parse(file: folder.appendingPathComponent("child.yaml"))
        #expect(child.store.fresh && child.store.objects == 0 && child.store.blobFraction == 0)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(child)) == child)
        try "name: grandchild\nextends: child.yaml\nstore:\n  objects: 50\n".write(to: folder.appendingPathComponent("grandchild.yaml"), atomically: true, encoding: .utf8)
        do {
            _ = try ScenarioParser.parse(file: folder.appendingPathComponent("grandchild.yaml"))
            Issue.record("objects beside an inherited fresh store was accepted")
        } catch let error as ScenarioError {
            #expect(error.line == 4 && error.column == 12, "\(error)")
            #expect(error.message.contains("store.fresh") && error.message.contains("50 generated objects"), "\(error)")
        }
    }

    @Test func freshWithoutWritersIsRefused() throws {
        do {
            _ = try ScenarioParser.parse(yaml: "name: bad\nstore: {fresh: true}\nwriters:\n  count: 0\n")
            Issue.record("a fresh store without writers was accepted")
        } catch let error as ScenarioError {
            #expect(error.line == 4 && error.column == 10, "\(error)")
            #expect(error.message.contains("writers.count must be at least 1"), "\(error)")
        }
    }

    @Test(arguments: [
        ("store: {fresh: true, objects: 20}", "objects", 31),
        ("store: {fresh: true, history: true}", "history", 31),
        ("store: {fresh: true, inheritance: true}", "inheritance", 35),
        ("store: {fresh: true, cloudkit: true}", "cloudkit", 32),
        ("store: {fresh: true, blob_fraction: 0.5}", "blob_fraction", 37),
    ])
    func freshBesideAGeneratedStoreIsRefusedAtTheKey(_ line: String, _ key: String, _ column: Int) throws {
        do {
            _ = try ScenarioParser.parse(yaml: "name: bad\n" + line + "\n")
            Issue.record("\(line) was accepted")
        } catch let error as ScenarioError {
            #expect(error.line == 2, "\(error)")
            #expect(error.column == column, "\(error)")
            #expect(error.message.contains("store.\(key)") && error.message.contains("store.fresh"), "\(error)")
        }
    }
}
