import Foundation
import Checks
import LifeboatTestSupport
import Runner
import Scenario
import Testing

/// `faults.fsync_failure` at the program level: one backup program (Scenarios/scripts/backup-fsync-eio.py) whose
/// first fsync of its copy fails with EIO, judged by the existing invariants after a power cut. Under ext4's
/// semantics the program that retries the fsync and reports success is caught by backup-durable; the one that
/// treats the EIO as fatal to its copy (copies again) holds it; the one that treats it as fatal to itself reports
/// the failure (backup-completes) and claims no backup. Without the setting the retry would persist the data, so
/// the same retrying program holds: the setting is what catches it.
@Suite(.serialized, .ownThread) struct FsyncFailureDrillTests {
    static let retry = DrillTests.scenarios.appendingPathComponent("fsync-retry-after-eio.yaml")

    static func run(mode: String, semantics: Scenario.FsyncFailure?) throws -> [String: Verdict.Status] {
        var scenario = try ScenarioParser.parse(file: retry)
        #expect(scenario.faults.fsyncFailure == .ext4)
        scenario.faults.fsyncFailure = semantics
        scenario.invariants = ["backup-durable", "backup-completes"]
        scenario.schedule[0].command = scenario.schedule[0].command?.replacingOccurrences(of: "backup-fsync-eio.py\" retry",
                                                                                            with: "backup-fsync-eio.py\" \(mode)")
        #expect(scenario.schedule[0].command?.hasSuffix("\" \(mode)") == true)
        let scratch = try Scratch("fsync-failure-\(mode)")
        let (result, _) = try DrillTests.run(scenario, file: retry.path, scratch: scratch)
        #expect(result.environmentError == nil, "\(result.errors)")
        var statuses: [String: Verdict.Status] = [:]
        for verdict in result.verdicts where ["backup-durable", "backup-completes"].contains(verdict.invariant) {
            // A violation anywhere wins over a held verdict of the same invariant.
            if statuses[verdict.invariant] != .violated { statuses[verdict.invariant] = verdict.status }
        }
        return statuses
    }

    @Test func retryingAfterEIOIsCaughtUnderExt4() throws {
        let statuses = try Self.run(mode: "retry", semantics: .ext4)
        #expect(statuses["backup-completes"] == .held)
        #expect(statuses["backup-durable"] == .violated, "\(statuses)")
    }

    @Test func copyingAgainAfterEIOHoldsUnderExt4() throws {
        let statuses = try Self.run(mode: "redo", semantics: .ext4)
        #expect(statuses == ["backup-completes": .held, "backup-durable": .held])
    }

    @Test func failingOnEIOReportsTheFailureAndClaimsNoBackup() throws {
        let statuses = try Self.run(mode: "fatal", semantics: .ext4)
        #expect(statuses["backup-completes"] == .violated)
        #expect(statuses["backup-durable"] != .violated, "\(statuses)")
    }

    @Test func withoutTheSettingTheRetryPersistsAndHolds() throws {
        let statuses = try Self.run(mode: "retry", semantics: nil)
        #expect(statuses == ["backup-completes": .held, "backup-durable": .held])
    }
}
