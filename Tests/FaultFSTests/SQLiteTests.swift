import Foundation
import GRDB
import Testing
@testable import FaultFS

extension MountTests {
    @Suite struct SQLiteTests {
        /// Three sqlite3 processes write concurrently in WAL mode on the mount. POSIX locks are handled by
        /// the kernel (FaultFS leaves lock/flock unimplemented), so every row lands and the file is sound.
        @Test func threeProcessesInWALModeKeepTheDatabaseConsistent() throws {
            let sqlite = "/usr/bin/sqlite3"
            try #require(FileManager.default.isExecutableFile(atPath: sqlite), "needs \(sqlite)")
            try withMount { m in
                let db = m.path("shared.db")
                let setup = try runProcess(sqlite, [db, "PRAGMA journal_mode=WAL; CREATE TABLE t(id INTEGER PRIMARY KEY, w INTEGER, v BLOB);"])
                #expect(setup.status == 0, "\(setup.output)")
                let perWriter = 150
                var processes: [(Process, Pipe)] = []
                for w in 1...3 {
                    var sql = ".timeout 20000\nPRAGMA synchronous=FULL;\n"
                    for _ in 0..<perWriter { sql += "BEGIN IMMEDIATE; INSERT INTO t(w, v) VALUES(\(w), randomblob(200)); COMMIT;\n" }
                    let script = m.root.appendingPathComponent("w\(w).sql")
                    try sql.write(to: script, atomically: true, encoding: .utf8)
                    let p = Process()
                    p.executableURL = URL(fileURLWithPath: "/bin/sh")
                    p.arguments = ["-c", "exec \(sqlite) '\(db)' < '\(script.path)'"]
                    let pipe = Pipe()
                    p.standardOutput = pipe
                    p.standardError = pipe
                    try p.run()
                    processes.append((p, pipe))
                }
                for (p, pipe) in processes {
                    let out = pipe.fileHandleForReading.readDataToEndOfFile()
                    p.waitUntilExit()
                    #expect(p.terminationStatus == 0, "\(String(decoding: out, as: UTF8.self))")
                }
                do {
                    let queue = try DatabaseQueue(path: db)
                    let (check, total, perW): (String?, Int?, [Int?]) = try queue.read { d throws -> (String?, Int?, [Int?]) in
                        let check = try String.fetchOne(d, sql: "PRAGMA integrity_check")
                        let total = try Int.fetchOne(d, sql: "SELECT count(*) FROM t")
                        let perW = try (1...3).map { try Int.fetchOne(d, sql: "SELECT count(*) FROM t WHERE w = ?", arguments: [$0]) }
                        return (check, total, perW)
                    }
                    #expect(check == "ok")
                    #expect(total == 3 * perWriter)
                    #expect(perW == [perWriter, perWriter, perWriter])
                    try queue.close()
                }
                // Checkpointed and synced, the database survives a crash intact.
                let ck = try runProcess(sqlite, [db, "PRAGMA wal_checkpoint(TRUNCATE);"])
                #expect(ck.status == 0)
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                try m.fs.crash(.keepNone)
                let after = try runProcess(sqlite, [db, "PRAGMA integrity_check; SELECT count(*) FROM t;"])
                #expect(after.output.split(separator: "\n").map(String.init) == ["ok", "\(3 * perWriter)"])
            }
        }

        /// A full disk and a spent quota are different errors to SQLite: its unix VFS turns a write's ENOSPC into
        /// SQLITE_FULL and every other errno, EDQUOT too, into SQLITE_IOERR_WRITE (os_unix.c, unixWrite). So a
        /// program that handles SQLITE_FULL alone meets the quota as an I/O error, which `edquot-after` shows.
        @Test(arguments: [(FaultAction.enospcAfter(1000), ResultCode.SQLITE_FULL), (.edquotAfter(1000), .SQLITE_IOERR_WRITE)])
        func aSpentQuotaIsAnIOErrorToSQLiteWhereAFullDiskIsFull(action: FaultAction, expected: ResultCode) throws {
            try withMount { m in
                let queue = try DatabaseQueue(path: m.path("quota.db"))
                try queue.write { db in try db.execute(sql: "CREATE TABLE t(v BLOB)") }
                try m.fs.arm(FaultRule(ops: [.write], path: "/quota.db*", action: action))
                do {
                    try queue.write { db in try db.execute(sql: "INSERT INTO t(v) VALUES(randomblob(65536))") }
                    Issue.record("\(action): the insert past the budget succeeded")
                } catch let error as DatabaseError {
                    #expect(error.extendedResultCode == expected, "\(action): \(error)")
                }
                try queue.close()
            }
        }

        /// Committed transactions (WAL, synchronous=FULL) survive every crash mode, and the database stays sound.
        @Test(arguments: [CrashMode.keepNone, .torn(fill: .garbage), .reorder, .keepPrefix(3)])
        func committedTransactionsSurviveACrash(mode: CrashMode) throws {
            let sqlite = "/usr/bin/sqlite3"
            try #require(FileManager.default.isExecutableFile(atPath: sqlite), "needs \(sqlite)")
            try withMount(seed: 11) { m in
                let db = m.path("c.db")
                var sql = "PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; CREATE TABLE t(id INTEGER PRIMARY KEY, v BLOB);"
                for _ in 0..<40 { sql += "BEGIN; INSERT INTO t(v) VALUES(randomblob(300)); COMMIT;" }
                #expect(try runProcess(sqlite, [db, sql]).status == 0)
                // The main db file's name is never made durable by SQLite itself (no directory fsync for it).
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                #expect(try runProcess(sqlite, [db, "INSERT INTO t(v) VALUES(zeroblob(10));"]).status == 0)
                try m.fs.crash(mode)
                let after = try runProcess(sqlite, [db, "PRAGMA integrity_check; SELECT count(*) FROM t;"])
                #expect(after.output.split(separator: "\n").map(String.init) == ["ok", "41"], "\(mode): \(after.output)")
            }
        }
    }
}
