import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// Every CloudKit drill in Scenarios/cloudkit shows the verdict it expects (docs/cloudkit.md), on its own seed;
/// `scripts/cloudkit-seeds.sh` runs them over ten.
@Suite(.ownThread) struct CloudKitDrillTests {
    static let directory = DrillTests.scenarios.appendingPathComponent("cloudkit")

    static var drills: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.sorted()
    }

    static func run(_ name: String) throws -> RunResult {
        let scratch = try Scratch("cloudkit-drill")
        let file = directory.appendingPathComponent(name)
        return try DrillTests.run(try ScenarioParser.parse(file: file), file: file.path, scratch: scratch).0
    }

    @Test(arguments: drills)
    func cloudKitDrillShowsItsExpectedVerdict(_ name: String) throws {
        let result = try Self.run(name)
        let summary = result.verdicts.filter { $0.status == .violated }.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" }
        #expect(result.expectationMet, "\(name) expected \(result.expectation); violated: \(summary); errors: \(result.errors)")
        #expect(result.errors.isEmpty, "\(result.errors)")
    }

    @Test func migrateMoveDuplicatesInTheZoneToo() throws {
        let result = try Self.run("relocate-migrate-duplicates.yaml")
        let duplicates = try #require(result.verdicts.first { $0.invariant == "no-duplicates" })
        #expect(duplicates.evidence.contains { $0.contains("zone: ") })
        #expect(duplicates.evidence.contains { $0.contains("store after sync-2") })
    }

    @Test func signedOutFreezeCitesTheMirrorsRetryLog() throws {
        let result = try Self.run("relocate-signed-out-freeze.yaml")
        let verdict = try #require(result.verdicts.first { $0.invariant == "relocation-completes" })
        #expect(verdict.status == .violated)
        #expect(verdict.evidence.contains { $0.contains("mirror log") && $0.contains("no iCloud account") })
    }
}
