import Foundation
import Scenario
import Testing

/// `account: sign-in|sign-out` and `device: NAME` (docs/cloudkit.md) read, render back, and refuse mistakes at
/// their line and column.
@Suite struct AccountDeviceKeysTests {
    @Test func readsAndRendersBack() throws {
        let parsed = try ScenarioParser.parse(yaml: """
            name: devices
            store: {cloudkit: true}
            schedule:
              - account: sign-out
              - device: B
                objects: 12
                after_step: 0
              - account: sign-in
                after_step: 1
            """)
        #expect(parsed.schedule.map(\.action.rawValue) == ["account", "device", "account"])
        #expect(parsed.schedule[0].strategy == "sign-out" && parsed.schedule[2].strategy == "sign-in")
        #expect(parsed.schedule[1].strategy == "B" && parsed.schedule[1].secondDevice?.objects == 12)
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func aDevicesObjectsMayBeWrittenOnAnyOfItsEntries() throws {
        let parsed = try ScenarioParser.parse(yaml: """
            name: devices
            store: {cloudkit: true}
            schedule:
              - device: B
              - device: C
              - device: B
                objects: 30
                after_step: 0
            """)
        #expect(parsed.deviceObjects("B") == 30)
        #expect(parsed.deviceObjects("C") == 10)
    }

    @Test(arguments: [
        ("name: x\nschedule:\n  - account: logout\n", 3, 14, "account must be one of sign-in, sign-out"),
        ("name: x\nstore: {cloudkit: true}\nschedule:\n  - device: my phone\n", 4, 13, "device must be a plain name"),
        ("name: x\nstore: {cloudkit: true}\nschedule:\n  - device: B\n    objects: 0\n", 5, 14, "objects must be between 1 and 100000"),
        ("name: x\nschedule:\n  - device: B\n", 3, 13, "needs `store: {cloudkit: true}`"),
        // A device has one store: a later entry cannot ask for another number of objects (it was silently ignored).
        ("name: x\nstore: {cloudkit: true}\nschedule:\n  - device: B\n    objects: 5\n  - device: B\n    objects: 8\n", 7, 14,
         "device B has one store, made with the objects of its first sync; schedule[0] already gives it objects: 5, not 8"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
