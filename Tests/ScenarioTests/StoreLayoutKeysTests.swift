import Foundation
import Scenario
import Testing

/// The store keys that give a generated store a real store's layout: parsed, defaulted, and rendered back
/// (a report's `repro.yaml` must keep them, or a replay drills on another layout).
@Suite struct StoreLayoutKeysTests {
    @Test func inheritanceAndHistoryParseAndRenderBack() throws {
        let plain = try ScenarioParser.parse(yaml: "name: plain\n")
        #expect(!plain.store.inheritance && !plain.store.history)
        let scenario = try ScenarioParser.parse(yaml: "name: layouts\nstore: {inheritance: true, history: true}\n")
        #expect(scenario.store.inheritance && scenario.store.history)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario)) == scenario)
        #expect(throws: (any Error).self) { try ScenarioParser.parse(yaml: "name: x\nstore: {inheritance: maybe}\n") }
    }
}
