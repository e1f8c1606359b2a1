import FaultVocabulary
import Foundation
import Scenario
import Testing

/// Every shipped scenario still parses with the typed fault vocabulary, and its fault rules and crash render back
/// (repro YAML) to text that parses to the same values.
@Suite struct ShippedFaultRulesTests {
    @Test func everyShippedScenarioParsesAndItsFaultsRenderBack() throws {
        let root = ScenarioMutationProperties.shipped
        let files = (FileManager.default.enumerator(atPath: root.path)?.compactMap { $0 as? String } ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") && !$0.contains("/_") }.sorted()
        #expect(files.count >= 100)
        var rules = 0
        for name in files {
            let scenario: Scenario
            do { scenario = try ScenarioParser.parse(file: root.appendingPathComponent(name)) } catch {
                Issue.record("\(name): \(error)")
                continue
            }
            rules += scenario.faults.rules.count
            let back = try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario))
            #expect(back.faults.rules == scenario.faults.rules && back.faults.crash == scenario.faults.crash, "\(name)")
            for rule in scenario.faults.rules {
                #expect(try FaultAction(text: rule.action.description) == rule.action, "\(name): \(rule.action)")
            }
        }
        #expect(rules >= 5, "the shipped scenarios arm fault rules (5 when this was written)")
    }
}
