import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// Real Core Data stores are INCREMENTAL auto-vacuum (all five fixture stores' headers); the option makes a new
/// store so, and leaves an existing one as it is (docs/fidelity.md, "Core Data's SQLite settings").
@Suite struct AutoVacuumTests {
    static func autoVacuum(_ url: URL) throws -> Int {
        let queue = try DatabaseQueue(path: url.path)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "PRAGMA auto_vacuum") ?? -1 }
    }

    @Test func aNewStoreTakesIncrementalAutoVacuumAndAnOldOneKeepsItsOwn() throws {
        let scratch = try Scratch("auto-vacuum")
        var options = StoreOptions()
        options.incrementalAutoVacuum = true
        let made = scratch.path("incremental/Library.sqlite")
        _ = try StoreGenerator(objects: 20, blobFraction: 0).generate(at: made, options: options)
        #expect(try Self.autoVacuum(made) == 2)
        let plain = try scratch.store("plain/Library.sqlite", objects: 20)
        #expect(try Self.autoVacuum(plain) == 0)
        let store = try PersistentStore(at: plain, model: .library, options: options)
        #expect(try store.count("Note") > 0)
        try store.close()
        #expect(try Self.autoVacuum(plain) == 0)
    }
}
