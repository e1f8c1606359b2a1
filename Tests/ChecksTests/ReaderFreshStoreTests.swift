@testable import Checks
import Foundation
import LifeboatTestSupport
import StoreModel
import Testing

/// A reader started on a fresh store (`store.fresh`) before its first writer has made the schema: the file exists
/// with no table from the writer's first open until its creating transaction commits. Read then, it passes for a
/// store of another's layout (no model cache of ours), and every snapshot would name its objects by key, so that
/// `reader-consistent` saw "0 of its transactions" in every read (FreshStoreCrashStateTests, once under load).
@Suite struct ReaderFreshStoreTests {
    @Test func aReaderWaitsForTheSchemaOfAStoreBeingMade() throws {
        let scratch = try Scratch("reader-fresh")
        let store = scratch.path("Library.sqlite")
        // The moment the hazard lasts: the file the first open makes, with no table in it (SQLite reads an empty
        // file as an empty database).
        #expect(FileManager.default.createFile(atPath: store.path, contents: nil))
        #expect(try StoreKind.of(store) == .layout, "the hazard: an empty file reads as another's layout")
        #expect(Reader.hasNoTableYet(store))
        #expect(!Reader.hasNoTableYet(scratch.path("missing.sqlite")), "a missing file is openStore's to wait for")

        // The first writer makes the schema a moment after the reader starts waiting.
        let maker = Thread {
            usleep(300_000)
            _ = try? PersistentStore(at: store, model: .library, options: StoreOptions()).close()
        }
        maker.start()
        let started = Date()
        let reader = try Reader.snapshotReader(store, while: { Date().timeIntervalSince(started) < 30 })
        defer { reader.close() }
        #expect(Date().timeIntervalSince(started) >= 0.25, "the reader waited for the schema")
        #expect(try StoreKind.of(store) == .harness)
        #expect(try reader.snapshot({}).notes.isEmpty)
        #expect(!Reader.hasNoTableYet(store))
    }
}
