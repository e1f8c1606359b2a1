import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// A store grown by free pages (`store.free_space`) must stay a valid SQLite database whose objects lie past the
/// lock-byte page, and cost holes, not disk.
@Suite struct FreePagesTests {
    @Test func aStoreGrownPastOneGiBIsValidWithItsObjectsPastTheLockPage() throws {
        let scratch = try Scratch("free-pages")
        let url = scratch.path("live/Library.sqlite")
        var generator = StoreGenerator(objects: 120, blobFraction: 0, seed: 3)
        generator.freeSpace = 1 << 30
        try generator.generate(at: url)
        let plain = try scratch.store("plain/Library.sqlite", objects: 120, seed: 3)

        let queue = try DatabaseQueue(path: url.path)
        let (pageCount, freeCount, pageSize, integrity, notes, highest) = try queue.read { db in
            (try Int.fetchOne(db, sql: "PRAGMA page_count")!, try Int.fetchOne(db, sql: "PRAGMA freelist_count")!,
             try Int.fetchOne(db, sql: "PRAGMA page_size")!, try String.fetchAll(db, sql: "PRAGMA integrity_check"),
             try Int.fetchOne(db, sql: "SELECT count(*) FROM ZNOTE")!,
             try Int.fetchOne(db, sql: "SELECT max(pageno) FROM dbstat WHERE name = 'ZNOTE'"))
        }
        try queue.close()
        let lockPage = FreePages.lockByteOffset / pageSize + 1
        #expect(integrity == ["ok"])
        #expect(pageCount * pageSize > FreePages.lockByteOffset)
        #expect(freeCount > (1 << 30) / pageSize - 1000)
        // The same objects as a store generated without free space.
        let plainNotes = try DatabaseQueue(path: plain.path).read { try Int.fetchOne($0, sql: "SELECT count(*) FROM ZNOTE")! }
        #expect(notes == plainNotes)
        if let highest { #expect(highest > lockPage) }
        // Holes: the file takes a few blocks on disk, not a gigabyte.
        var info = stat()
        #expect(stat(url.path, &info) == 0)
        #expect(Int(info.st_blocks) * 512 < 64 << 20)
    }

    @Test func freePagesAreRefusedBesideANonEmptyWAL() throws {
        let scratch = try Scratch("free-pages-wal")
        let url = try scratch.store()
        try Data(repeating: 1, count: 4096).write(to: URL(fileURLWithPath: url.path + "-wal"))
        #expect(throws: StoreError.self) { try FreePages.add(bytes: 1 << 20, to: url) }
    }
}
