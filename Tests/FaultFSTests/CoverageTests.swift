import Foundation
import Testing
@testable import FaultFS

/// Coverage counters and the `crash` action's freeze, without a mount (the walk tests cover them mounted).
@Suite struct CoverageTests {
    @Test func filesAreClassedByOpAndPath() {
        #expect(FileClass.of("/Library.sqlite", op: .write) == .db)
        #expect(FileClass.of("/a/b.db", op: .read) == .db)
        #expect(FileClass.of("/Library.sqlite-wal", op: .write) == .wal)
        #expect(FileClass.of("/Library.sqlite-shm", op: .write) == .shm)
        #expect(FileClass.of("/x.db-journal", op: .fsync) == .journal)
        #expect(FileClass.of("/.Library_SUPPORT/_EXTERNAL_DATA/3F2A", op: .create) == .externalData)
        #expect(FileClass.of("/.Library_SUPPORT/_EXTERNAL_DATA", op: .getattr) == .directory)
        #expect(FileClass.of("/anything", op: .fsyncdir) == .directory)
        #expect(FileClass.of("/", op: .getattr) == .directory)
        #expect(FileClass.of("/notes.txt", op: .write) == .other)
    }

    @Test func engineCountsRanMatchedAndFiredPerCell() throws {
        let engine = FaultEngine(seed: 1)
        guard case .success = engine.arm(FaultRule(ops: [.write], path: "*-wal", trigger: .nth(2), action: .errno(.EIO))) else {
            Issue.record("arm failed")
            return
        }
        for _ in 0..<3 { _ = engine.evaluate(.write, paths: ["/s.sqlite-wal"]) }
        _ = engine.evaluate(.write, paths: ["/s.sqlite"])
        _ = engine.evaluate(.fsync, paths: ["/s.sqlite-wal"])
        _ = engine.evaluate(.fsyncdir, paths: ["/"])
        engine.coverage.noteSyncAll()
        let coverage = engine.coverage.snapshot()
        let wal = try #require(coverage.cells.first { $0.op == "write" && $0.fileClass == "-wal" })
        #expect(wal == CoverageCell(op: "write", fileClass: "-wal", ops: 3, matched: 3, fired: 1))
        #expect(coverage.cells.first { $0.op == "write" && $0.fileClass == "db" } == CoverageCell(op: "write", fileClass: "db", ops: 1, matched: 0, fired: 0))
        #expect(coverage.persistencePoints == 3) // fsync, fsyncdir, sync-all
        #expect(coverage.crashes == 0)
    }

    @Test func crashActionFreezesEveryLaterCallUntilThawed() {
        let engine = FaultEngine(seed: 1)
        _ = engine.arm(FaultRule(id: "c", ops: [.write], path: "*-wal", trigger: .nth(2), action: .crash))
        #expect(engine.evaluate(.write, paths: ["/s-wal"]).action == nil)
        let fired = engine.evaluate(.write, paths: ["/s-wal"])
        #expect(fired.action == .crash && fired.errnoValue == nil) // the call itself runs
        #expect(engine.isFrozen)
        #expect(engine.evaluate(.read, paths: ["/other"]).errnoValue == EIO)
        #expect(engine.evaluate(.fsync, paths: ["/s"]).errnoValue == EIO)
        engine.thaw()
        #expect(engine.evaluate(.read, paths: ["/other"]).errnoValue == nil)
        #expect(engine.list().first?.firstFire?.op == "write")
    }
}
