@testable import Checks
import Foundation
import StoreCheck
import Testing

/// `app-durable` on records built by hand: after a power failure, the attachment files the app's own
/// never-synced operations lost are the app's finding, reported apart (owner app) and failing no `pass` run
/// unless the scenario names it; a crash that took none of the app's writes holds; a file a program's operation
/// lost is not the app's; a run without a crash of the live store is not exercised.
@Suite struct AppDurableInvariantTests {
    static let name = "app-durable"

    static func rename(_ file: String, by actor: String, kind: ActorKind) -> LossRecord.Operation {
        LossRecord.Operation(what: "rename /.Library_SUPPORT/_EXTERNAL_DATA/\(file).interim -> /.Library_SUPPORT/_EXTERNAL_DATA/\(file)",
                             path: "/.Library_SUPPORT/_EXTERNAL_DATA/\(file).interim", actor: actor, kind: kind, barrier: "never")
    }

    /// A crash at 3.5 s after which the live store holds all three commits; `missing` names the attachment files
    /// it lacks, each with the operation that took it.
    static func record(missing: [String: LossRecord.Operation] = [:], dropped: [LossRecord.Operation] = [], invariants: [String] = []) -> RunRecord {
        var record = HandBuilt.record(plan: HandBuilt.plan(invariants: invariants))
        record.crash = CrashRecord(at: 3.5, description: "crash (keep-none) at 3.5 s",
                                   live: HandBuilt.clean("live store after the crash", state: HandBuilt.state(3)),
                                   liveLoss: LossRecord(operations: dropped, cause: "the app's renames were never followed by an fsync of their directory"))
        record.crash?.missingExternalFiles = missing
        return record
    }

    @Test func aCrashThatTookNoneOfTheAppsWritesHolds() {
        let verdict = HandBuilt.verdict(Self.record(), Self.name)
        #expect(verdict.status == .held && verdict.summary == "held in 1 check(s): the crash took none of the app's own writes from the live store", "\(verdict)")
        #expect(verdict.isAppsOwn)
        let unneeded = HandBuilt.verdict(Self.record(dropped: [Self.rename("EF56", by: "writer-1", kind: .app)]), Self.name)
        #expect(unneeded.status == .held && unneeded.summary.hasSuffix("the crash dropped 1 of the app's unsynced operation(s), none of which the recovered store needed"), "\(unneeded)")
    }

    @Test func anAttachmentTheAppNeverSyncedIsTheAppsOwnFinding() {
        let operation = Self.rename("AB12", by: "writer-1", kind: .app)
        let judgement = Judge.judge(Self.record(missing: ["AB12": operation], dropped: [operation]))
        let verdict = HandBuilt.verdict(judgement, Self.name)
        #expect(verdict.status == .violated && verdict.isAppsOwn, "\(verdict)")
        #expect(verdict.summary.hasSuffix("the app's own writes were lost in the crash: 1 attachment file(s) missing (Core Data neither syncs attachment files nor the folder it renames them into; docs/fidelity.md)"), "\(verdict.summary)")
        #expect(verdict.evidence == ["attachment AB12 is missing: \(operation.what) by writer-1, never synced; the crash dropped it",
                                     "lost: \(operation.what) by writer-1, never synced"], "\(verdict.evidence)")
        #expect(verdict.cause == "the app's renames were never followed by an fsync of their directory")
        #expect(judgement.expectationMet, "the app's own finding fails no pass run")
        let named = Judge.judge(Self.record(missing: ["AB12": operation], dropped: [operation], invariants: [Self.name]))
        #expect(!HandBuilt.verdict(named, Self.name).isAppsOwn && !named.expectationMet, "named, it is judged like any other")
    }

    @Test func aFileAProgramLostIsNotTheAppsFinding() {
        let verdict = HandBuilt.verdict(Self.record(missing: ["CD34": Self.rename("CD34", by: "restore-1 (command)", kind: .program)]), Self.name)
        #expect(verdict.status == .held, "\(verdict)")
    }

    @Test func withoutACrashOfTheLiveStoreItIsNotExercised() {
        let verdict = HandBuilt.verdict(HandBuilt.record(), Self.name)
        #expect(verdict.status == .notApplicable && verdict.isAppsOwn, "\(verdict)")
        #expect(verdict.summary == "not exercised: no crash of the live store in this run (the app's own losses are judged after a power cut)")
    }
}
