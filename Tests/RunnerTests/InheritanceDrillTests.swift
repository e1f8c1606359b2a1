import Foundation
import GRDB
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// The drill on a store with entity inheritance (`Scenarios/inheritance.yaml`): the writers really change objects
/// of the sub-entities, which share their root's table, and every invariant holds over seeds.
@Suite(.serialized, .ownThread) struct InheritanceDrillTests {
    @Test func writersChangeSubentitiesAndEveryInvariantHolds() throws {
        let scratch = try Scratch("inheritance-drill")
        let file = DrillTests.scenarios.appendingPathComponent("inheritance.yaml")
        var scenario = try ScenarioParser.parse(file: file)
        #expect(scenario.store.inheritance)
        scenario.writers.transactions = 60
        var committed: Set<String> = []
        for seed in 1...3 as ClosedRange<UInt64> {
            scenario.seed = seed
            var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch-\(seed)"))
            settings.makeVolume = StoreVolumes.make
            settings.keepScratch = true
            let (result, _) = try ScenarioRunner(scenario: scenario, file: file.path, settings: settings).run()
            let violated = result.verdicts.filter { $0.status == .violated }
            #expect(result.expectationMet, "seed \(seed): \(violated.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" })")
            #expect(result.errors.isEmpty, "seed \(seed): \(result.errors)")
            #expect(result.verdicts.contains { $0.invariant == "restore-equals-backup" && $0.status == .held })

            // What the writers committed, read from their histories.
            let walker = FileManager.default.enumerator(atPath: scratch.path("scratch-\(seed)").path)
            while let relative = walker?.nextObject() as? String {
                guard relative.hasSuffix(".jsonl") else { continue }
                let text = try String(contentsOf: scratch.path("scratch-\(seed)/\(relative)"), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                          let ops = object["ops"] as? [[String: Any]] else { continue }
                    for op in ops { committed.insert("\(op["entity"] ?? "") \(op["op"] ?? "")") }
                }
            }
        }
        // Over the seeds, every entity of the hierarchy was inserted and updated, and sub-entities deleted.
        for entity in ["Item", "Checklist", "Sketch"] {
            #expect(committed.contains("\(entity) insert") && committed.contains("\(entity) update"), "\(committed.sorted())")
        }
        #expect(committed.contains("Checklist delete") || committed.contains("Sketch delete"), "\(committed.sorted())")
    }
}
