import Foundation
import Scenario
import Testing

/// The app's side of an incompatible store (docs/scenario-file.md): the two lightweight-migration options set
/// apart, the model with a changed attribute type, and `incompatible_store: move-aside`.
@Suite struct LightweightOptionsKeysTests {
    @Test func theTwoOptionsReadApartAndRenderBack() throws {
        let parsed = try ScenarioParser.parse(yaml: """
            name: x
            app_model: library-type-change
            lightweight_migration: {migrate_automatically: true, infer_mapping_model: false}
            incompatible_store: move-aside
            """)
        #expect(parsed.appModel == "library-type-change" && parsed.incompatibleStore == "move-aside")
        #expect(parsed.migrateAutomatically && !parsed.inferMappingModel && !parsed.lightweightMigration)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func theBoolSetsBoth() throws {
        let on = try ScenarioParser.parse(yaml: "name: x\nlightweight_migration: true\n")
        #expect(on.migrateAutomatically && on.inferMappingModel && on.lightweightMigration && on.incompatibleStore == "fail")
        let off = try ScenarioParser.parse(yaml: "name: x\n")
        #expect(!off.migrateAutomatically && !off.inferMappingModel)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(on)) == on)
    }

    @Test(arguments: [
        ("name: x\nlightweight_migration: sometimes\n", 2, 24, "lightweight_migration must be true, false or {migrate_automatically"),
        ("name: x\nlightweight_migration: {migrate_automatically: yes please}\n", 2, 48, "migrate_automatically must be true or false"),
        ("name: x\nlightweight_migration: {infer: true}\n", 2, 25, "unknown key 'infer' in scenario.lightweight_migration; expected one of: migrate_automatically, infer_mapping_model"),
        ("name: x\nincompatible_store: delete\n", 2, 21, "incompatible_store must be one of fail, move-aside"),
        ("name: x\napp_model: library-v3\n", 2, 12, "library-type-change"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
