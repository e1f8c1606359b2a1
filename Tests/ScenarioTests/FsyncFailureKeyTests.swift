import Foundation
import Scenario
import Testing

/// `faults.fsync_failure` (docs/faultfs.md, "fsync failure semantics"): reads each of ext4, xfs and btrfs, renders
/// back, is absent by default, and anything else is refused at its line and column.
@Suite struct FsyncFailureKeyTests {
    @Test(arguments: Scenario.FsyncFailure.allCases)
    func readsAndRendersBack(_ semantics: Scenario.FsyncFailure) throws {
        let parsed = try ScenarioParser.parse(yaml: "name: x\nfaults:\n  mount: true\n  fsync_failure: \(semantics.rawValue)\n")
        #expect(parsed.faults.fsyncFailure == semantics)
        #expect(ScenarioYAML.render(parsed).contains("fsync_failure: \(semantics.rawValue)"))
        #expect(try ScenarioParser.parse(yaml: ScenarioYAML.render(parsed)) == parsed)
    }

    @Test func absentByDefault() throws {
        #expect(try ScenarioParser.parse(yaml: "name: x\nfaults: {mount: true}\n").faults.fsyncFailure == nil)
    }

    @Test(arguments: [
        ("name: x\nfaults:\n  fsync_failure: zfs\n", 3, 18, "faults.fsync_failure must be ext4, xfs or btrfs, not 'zfs'"),
        ("name: x\nfaults: {fsync_failure: [ext4]}\n", 2, 25, "faults.fsync_failure must be ext4, xfs or btrfs"),
    ])
    func badInputPointsAtTheMistake(_ input: (String, Int, Int, String)) {
        expectScenarioError(input.0, line: input.1, column: input.2, message: input.3)
    }
}
