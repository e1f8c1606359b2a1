import FaultVocabulary
import Foundation
import Scenario
import Testing

/// `faults.device`: a named profile or explicit keys, rendered back into repros, with bad values pointed at.
@Suite struct DeviceParsingTests {
    @Test func namedProfilesAndOverridesParseAndRenderBack() throws {
        let named = try ScenarioParser.parse(yaml: "name: d\nfaults: {device: ssd-4k-atomic}\n")
        #expect(named.faults.device == DeviceProfiles.named["ssd-4k-atomic"])
        #expect(named.faults.needsFaultFS)
        let custom = try ScenarioParser.parse(yaml: "name: d\nfaults:\n  device: {profile: hdd-512, powersafe_overwrite: true, atomic_write: 4KiB}\n")
        #expect(custom.faults.device?.sector == 512 && custom.faults.device?.atomicWrite == 4096 && custom.faults.device?.powersafeOverwrite == true)
        let back = try ScenarioParser.parse(yaml: ScenarioYAML.render(custom))
        #expect(back.faults.device?.sector == 512 && back.faults.device?.atomicWrite == 4096 && back.faults.device?.powersafeOverwrite == true)
    }

    @Test(arguments: [
        ("faults: {device: floppy}", "unknown profile 'floppy'"),
        ("faults: {device: {sector: 1000}}", "power of two"),
        ("faults: {device: {sector: 4096, atomic_write: 512}}", "at least the sector size"),
        ("faults: {device: {sector: 512, tear: yes}}", "tear"),
    ])
    func badDevicesAreReportedWithTheirPlace(_ yaml: String, _ message: String) {
        do {
            _ = try ScenarioParser.parse(yaml: "name: d\n" + yaml + "\n")
            Issue.record("parsed: \(yaml)")
        } catch {
            #expect("\(error)".contains(message), "\(error)")
            #expect("\(error)".contains(":2:"), "no line in \(error)")
        }
    }

    @Test func crashActionsAreValidRuleActions() throws {
        #expect(try FaultAction(text: "crash") == .crash(.keepNone))
        #expect(try FaultAction(text: "crash torn garbage") == .crash(.torn(fill: .garbage)))
        #expect(try FaultAction(text: "crash keep-prefix 3") == .crash(.keepPrefix(3)))
        #expect(throws: FaultTextError.self) { try FaultAction(text: "crash sideways") }
        #expect(throws: FaultTextError.self) { try FaultAction(text: "crash keep-prefix") }
    }
}
