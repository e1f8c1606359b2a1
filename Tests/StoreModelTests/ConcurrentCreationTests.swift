import Foundation
import GRDB
import LifeboatTestSupport
import StoreModel
import Testing

/// Opening a store while another connection writes the file's first page: SQLite answers the opener's
/// `PRAGMA journal_mode = WAL` with SQLITE_BUSY at once, without its busy handler, because waiting there could
/// deadlock. Two processes creating one store together met this ("database is locked" reported as "not a Core
/// Data SQLite store"); the open now waits within the busy timeout, and a lock that outlasts it is named a lock.
@Suite struct ConcurrentCreationTests {
    /// A connection in rollback mode holding the write lock on a new file, with a table created and uncommitted:
    /// the state of a process halfway through writing a fresh store's first page.
    static func holdFirstWrite(_ url: URL) throws -> DatabaseQueue {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        var configuration = Configuration()
        configuration.allowsUnsafeTransactions = true
        let holder = try DatabaseQueue(path: url.path, configuration: configuration)
        try holder.inDatabase { db in
            try db.execute(sql: "BEGIN IMMEDIATE")
            try db.execute(sql: "CREATE TABLE Placeholder (x)")
        }
        return holder
    }

    @Test func anOpenWaitsForAnotherConnectionsFirstWrite() throws {
        let scratch = try Scratch("concurrent-creation")
        let url = scratch.path("store/Library.sqlite")
        let holder = try Self.holdFirstWrite(url)
        let released = Thread {
            usleep(300_000)
            try? holder.inDatabase { db in
                try db.execute(sql: "ROLLBACK")
            }
        }
        released.start()
        var options = StoreOptions()
        options.busyTimeout = 10
        let started = Date()
        let store = try PersistentStore(at: url, model: .library, options: options)
        #expect(Date().timeIntervalSince(started) >= 0.2, "the open did not wait for the other connection's write")
        #expect(try store.count("Note") == 0)
        try store.close()
        try holder.close()
    }

    @Test func aLockThatOutlastsTheBusyTimeoutIsReportedAsALock() throws {
        let scratch = try Scratch("concurrent-creation-timeout")
        let url = scratch.path("store/Library.sqlite")
        let holder = try Self.holdFirstWrite(url)
        var options = StoreOptions()
        options.busyTimeout = 0.3
        do {
            _ = try PersistentStore(at: url, model: .library, options: options)
            Issue.record("the store opened while another connection held its first write")
        } catch let error as StoreError {
            guard case .sqlite(let message) = error else {
                Issue.record("a lock was reported as \(error)")
                return
            }
            #expect(message.contains("locked"), "\(message)")
        }
        try holder.inDatabase { try $0.execute(sql: "ROLLBACK") }
        try holder.close()
    }
}
