import Foundation
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// `faults.host_sync` decides only whether FaultFS also flushes the host device under its backing directory; the
/// simulated crash and every check read the backing directory through the host's page cache, so no verdict may
/// change with it. Each FaultFS drill runs with `on` and with `off` (same seed) and must show the same verdict
/// per invariant and meet its expectation both times. CI runs a representative subset (a crash with
/// keep-none, fsync lies, a backup whose durability the crash judges); `scripts/host-sync-drills.sh` sets
/// LIFEBOAT_HOST_SYNC_DRILLS=all to run every shipped FaultFS drill (Scenarios/*.yaml and Scenarios/devices/).
@Suite(.serialized, .ownThread) struct HostSyncDrillTests {
    static let root = DrillTests.scenarios

    static var drills: [String] {
        let subset = ["crash-durable.yaml", "fsync-lies.yaml", "backup-not-durable.yaml"]
        guard ProcessInfo.processInfo.environment["LIFEBOAT_HOST_SYNC_DRILLS"] == "all" else { return subset }
        let fm = FileManager.default
        let names = ["", "devices/"].flatMap { folder in
            ((try? fm.contentsOfDirectory(atPath: root.appendingPathComponent(folder).path)) ?? [])
                .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.map { folder + $0 }
        }
        return names.filter { name in
            (try? ScenarioParser.parse(file: root.appendingPathComponent(name)))?.faults.needsFaultFS == true
        }.sorted()
    }

    @Test(arguments: drills)
    func sameVerdictsWithAndWithoutHostFlush(_ name: String) throws {
        let file = Self.root.appendingPathComponent(name)
        let scenario = try ScenarioParser.parse(file: file)
        #expect(scenario.faults.needsFaultFS, "\(name) does not run on FaultFS")
        var verdicts: [String: [String]] = [:]
        for mode in ["on", "off"] {
            var s = scenario
            s.faults.hostSync = mode
            let scratch = try Scratch("host-sync-\(mode)")
            let (result, _) = try DrillTests.run(s, file: file.path, scratch: scratch)
            #expect(result.expectationMet, "\(name) with host_sync \(mode): expected \(result.expectation), got \(result.verdicts.filter { $0.status == .violated }.map(\.invariant)); errors \(result.errors)")
            #expect(result.errors.isEmpty, "\(name) host_sync \(mode): \(result.errors)")
            verdicts[mode] = result.verdicts.map { "\($0.invariant)=\($0.status)" }
        }
        #expect(verdicts["on"] == verdicts["off"], "\(name): \(verdicts)")
    }

    @Test func hostSyncParsesAndRoundTrips() throws {
        let scratch = try Scratch("host-sync-parse")
        let base = try String(contentsOf: Self.root.appendingPathComponent("fsync-lies.yaml"), encoding: .utf8)
        try FileManager.default.copyItem(at: Self.root.appendingPathComponent("_defaults.yaml"), to: scratch.path("_defaults.yaml"))
        for (text, expected) in [("off", "off"), ("on", "on"), ("\"off\"", "off"), ("false", "off")] {
            let url = scratch.path("s-\(expected)-\(text.count).yaml")
            try base.replacingOccurrences(of: "faults:\n", with: "faults:\n  host_sync: \(text)\n").write(to: url, atomically: true, encoding: .utf8)
            let s = try ScenarioParser.parse(file: url)
            #expect(s.faults.hostSync == expected, "host_sync: \(text)")
            #expect(ScenarioYAML.render(s).contains("host_sync: \"\(expected)\""))
        }
        let bad = scratch.path("bad.yaml")
        try base.replacingOccurrences(of: "faults:\n", with: "faults:\n  host_sync: sometimes\n").write(to: bad, atomically: true, encoding: .utf8)
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(file: bad) }
    }
}
