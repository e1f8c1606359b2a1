import Foundation
import LifeboatCLI
import LifeboatTestSupport
import StoreModel
import Testing

/// `lifeboat mirror-step --config FILE`, the child of a run's `sync: live` and `device: NAME` entries: one
/// `MirrorRun` read through `ChildConfig`, run by the same code as `lifeboat mirror`; a configuration that is not
/// one, or a store that is not there, is bad input (exit 2), a mirror that cannot sync exit 1.
@Suite struct MirrorStepTests {
    /// A CloudKit store generated from `seed`, at `folder/Library.sqlite`.
    static func store(_ scratch: Scratch, _ folder: String) async throws -> String {
        let out = scratch.path(folder).path
        #expect(await LifeboatMain.run(["generate", "--objects", "12", "--blob-fraction", "0", "--cloudkit", "--seed", "5", "--out", out]) == 0)
        return out + "/Library.sqlite"
    }

    @Test func aStepConfigSyncsAsTheCommandDoes() async throws {
        let scratch = try Scratch("mirror-step")
        let (first, second) = (try await Self.store(scratch, "a"), try await Self.store(scratch, "b"))
        let config = scratch.path("sync.json")
        try JSONEncoder().encode(MirrorRun(store: first, cloud: scratch.path("zone-a").path, seed: 9, setupDeadline: 1)).write(to: config)
        #expect(await LifeboatMain.run(["mirror-step", "--config", config.path]) == 0)
        #expect(await LifeboatMain.run(["mirror", second, "--cloud", scratch.path("zone-b").path, "--seed", "9", "--setup-deadline", "1", "--json"]) == 0)
        let (a, b) = (try CloudKitZone(scratch.path("zone-a")).records(), try CloudKitZone(scratch.path("zone-b")).records())
        #expect(a.count == 12)
        #expect(a.map(\.recordName) == b.map(\.recordName))
        #expect(a == b)
    }

    @Test func aConfigThatIsNotOneOrAStoreThatIsNotThereIsBadInput() async throws {
        let scratch = try Scratch("mirror-step-bad")
        let config = scratch.path("sync.json")
        try Data(#"{"store": "/tmp/x.sqlite"}"#.utf8).write(to: config)
        #expect(await LifeboatMain.run(["mirror-step", "--config", config.path]) == 2)
        #expect(await LifeboatMain.run(["mirror-step", "--config", scratch.path("missing.json").path]) == 2)
        try JSONEncoder().encode(MirrorRun(store: scratch.path("none/Library.sqlite").path, cloud: scratch.path("zone").path, seed: 1,
                                           setupDeadline: 1)).write(to: config)
        #expect(await LifeboatMain.run(["mirror-step", "--config", config.path]) == 2)
        let store = try await Self.store(scratch, "s")
        try JSONEncoder().encode(MirrorRun(store: store, cloud: scratch.path("zone").path, seed: 1, setupDeadline: 0)).write(to: config)
        #expect(await LifeboatMain.run(["mirror-step", "--config", config.path]) == 2)
        // Signed out, the mirror's setup never completes: the sync failed (exit 1), the input was right.
        _ = try CloudKitZone.create(at: scratch.path("signed-out"), account: .unavailable)
        try JSONEncoder().encode(MirrorRun(store: store, cloud: scratch.path("signed-out").path, seed: 1, setupDeadline: 0.2)).write(to: config)
        #expect(await LifeboatMain.run(["mirror-step", "--config", config.path]) == 1)
    }
}
