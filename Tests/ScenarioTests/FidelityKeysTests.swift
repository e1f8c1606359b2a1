import Foundation
import Scenario
import Testing

/// The scenario keys of docs/fidelity.md's knobs: parsed, written back, and refused with a position when wrong.
@Suite struct FidelityKeysTests {
    @Test func syncExternalDataAndMigrateExistingRoundTrip() throws {
        let scenario = try ScenarioParser.parse(yaml: """
            name: knobs
            writers: {sync_external_data: true, external_data_grace: 2}
            schedule:
              - backup: migrate
                migrate_existing: overwrite
            """)
        #expect(scenario.writers.syncExternalData && scenario.writers.externalDataGrace == 2)
        #expect(scenario.schedule[0].migrateExisting == "overwrite")
        let again = try ScenarioParser.parse(yaml: ScenarioYAML.render(scenario))
        #expect(again == scenario)
    }

    @Test func anUnknownMigrateReadingIsRefusedWithItsPosition() {
        #expect {
            try ScenarioParser.parse(yaml: "name: bad\nschedule:\n  - backup: migrate\n    migrate_existing: replace\n", file: "bad.yaml")
        } throws: { error in
            "\(error)".contains("bad.yaml:4") && "\(error)".contains("append")
        }
    }
}
