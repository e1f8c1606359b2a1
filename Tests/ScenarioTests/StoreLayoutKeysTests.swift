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

    @Test func freeSpaceParsesAsASizeAndRendersBack() throws {
        #expect(try ScenarioParser.parse(yaml: "name: plain\n").store.freeSpace == 0)
        let scenario = try ScenarioParser.parse(yaml: "name: big\nstore: {free_space: 1GiB}\n")
        #expect(scenario.store.freeSpace == 1 << 30)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario)) == scenario)
        // Over 16 GiB, or not a size: refused with the key's place in the file.
        for bad in ["17GiB", "lots", "-1"] {
            do {
                _ = try ScenarioParser.parse(yaml: "name: big\nstore: {free_space: \(bad)}\n", file: "big.yaml")
                Issue.record("free_space: \(bad) was accepted")
            } catch {
                #expect("\(error)".contains("big.yaml:2:"), "\(error)")
                #expect("\(error)".contains("free_space"), "\(error)")
            }
        }
    }
}
