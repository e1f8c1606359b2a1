import Checks
import Foundation
import Testing

/// A rule's result carries the index of the scenario's rule it reports, so walks and probes look it up by that
/// index, not by its display name; a record stored before the index existed still decodes (without it).
@Suite struct FaultSummaryRuleTests {
    @Test func aSummaryIsFoundByItsRuleIndex() throws {
        var first = FaultSummary(name: "rule 0", fired: 1, detail: "write * -> errno EIO")
        first.rule = 0
        var third = FaultSummary(name: "rule 2", fired: 0, detail: "fsync * -> fsync-lie")
        third.rule = 2
        let faults = [first, third]
        #expect(faults.forRule(0) == first && faults.forRule(2) == third && faults.forRule(1) == nil)
        let back = try JSONDecoder().decode([FaultSummary].self, from: JSONEncoder().encode(faults))
        #expect(back.forRule(2)?.detail == "fsync * -> fsync-lie")
    }

    @Test func aRecordStoredBeforeTheIndexStillDecodes() throws {
        let old = try JSONDecoder().decode(FaultSummary.self, from: Data(#"{"name":"rule 0","fired":3,"detail":"write * -> errno EIO"}"#.utf8))
        #expect(old.rule == nil && old.fired == 3 && old.name == "rule 0")
    }
}
