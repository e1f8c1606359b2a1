import Foundation
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

/// Rules at close(2): FUSE's flush (docs/faultfs.md, "EIO at close"), without a mount.
@Suite struct CloseRuleTests {
    @Test func enosysCannotFailAClose() throws {
        // The kernel takes ENOSYS from a flush as "not implemented" and stops sending flushes.
        #expect(FaultRule(ops: [.flush], action: .errno(.ENOSYS)).validationError()?.contains("ENOSYS") == true)
        // The protocol takes a name in any case, as it always has; the rule holds the one errno.
        let lower = #"{"ops":["any"],"action":{"kind":"errno","errno":"enosys"}}"#
        let rule = try JSONDecoder().decode(FaultRule.self, from: Data(lower.utf8))
        #expect(rule.action == .errno(.ENOSYS) && rule.validationError() != nil)
        #expect(FaultRule(ops: [.write, .fsync], action: .errno(.ENOSYS)).validationError() == nil)
        #expect(FaultRule(ops: [.flush], action: .errno(.EIO)).validationError() == nil)
        #expect(FaultRule(ops: [.flush], action: .delay(10)).validationError() == nil)
    }

    @Test func aFrozenVolumeStillClosesAndCountsNoRuleOnIt() {
        let engine = FaultEngine(seed: 1)
        _ = engine.arm(FaultRule(id: "c", ops: [.fsync], trigger: .nth(1), action: .crash))
        _ = engine.arm(FaultRule(id: "f", ops: [.flush], action: .errno(.EIO)))
        _ = engine.evaluate(.fsync, paths: ["/a"])
        #expect(engine.isFrozen)
        #expect(engine.evaluate(.write, paths: ["/a"]).errnoValue == EIO)
        let close = engine.evaluate(.flush, paths: ["/a"])
        #expect(close.ruleID == nil && close.action == nil)
        #expect(engine.list().first { $0.rule.id == "f" }?.matched == 0)
        engine.thaw()
        #expect(engine.evaluate(.flush, paths: ["/a"]).errnoValue == EIO)
    }
}

extension MountTests {
    /// close(2) on a live mount: the Nth flush fails, dup'd descriptors each count, the bytes stay as they were.
    @Suite struct CloseFaultTests {
        /// Both FUSE APIs route close through the same `flush`.
        @Test(arguments: [[String](), ["--high-level"]])
        func errnoAtFlushFailsOnlyTheNthCloseAndLeavesTheBytes(_ arguments: [String]) throws {
            try withMount(arguments: arguments) { m in
                let old = Array("old!".utf8), new = Array("new bytes".utf8)
                #expect(Posix.write(m.path("c"), old, fsync: true) == .ok(old.count))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                let id = try m.fs.arm(FaultRule(id: "close-eio", ops: [.flush], path: "/c", trigger: .nth(2), action: .errno(.EIO)))
                let fd = open(m.path("c"), O_RDWR)
                try #require(fd >= 0)
                #expect(new.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) } == new.count)
                // One open file description, three descriptors: FUSE sends a flush for each close.
                let second = dup(fd), third = dup(fd)
                try #require(second >= 0 && third >= 0)
                var results: [Int32] = []
                for descriptor in [second, fd, third] {
                    let r = close(descriptor)
                    results.append(r == 0 ? 0 : errno)
                }
                #expect(results == [0, EIO, 0])
                // A close of another file does not count.
                #expect(Posix.write(m.path("other"), [1]) == .ok(1))
                let status = try #require(try m.fs.rules().first { $0.rule.id == id })
                #expect(status.matched == 3 && status.fired == 1)
                #expect(status.firstFire?.op == "flush" && status.firstFire?.path == "/c")
                // Counted in the coverage table: every close ran the rules (the durable write's close before the rule
                // was armed, the other file's), three matched, one fired.
                let coverage = try m.fs.coverage().coverage
                let cell = try #require(coverage.cells.first { $0.op == "flush" && $0.fileClass == "other" })
                #expect(cell.fired == 1 && cell.matched == 3 && cell.ops >= 5)
                // The local-file-system model: the bytes written are still there and still pending (close wrote
                // nothing back and dropped nothing), so a crash without an fsync loses them, as it would without
                // the failed close.
                #expect(Posix.contents(m.path("c")) == new)
                #expect(try m.fs.status().files.contains { $0.path == "/c" && $0.pendingOps == 1 })
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("c")) == old)
                m.fs.unmount()
                let flushes = try OpLog.read(m.log).filter { $0.op == .flush }
                #expect(flushes.count == 1)
                let record = try #require(flushes.first)
                #expect(record.path == "/c" && record.result == Int64(-EIO) && record.fault == "close-eio" && record.ino != nil)
                #expect(record.pid == getpid())
            }
        }

        @Test func delayAtFlushHoldsTheCloseAndItSucceeds() throws {
            try withMount { m in
                try m.fs.arm(FaultRule(id: "slow-close", ops: [.flush], path: "/d", trigger: .nth(1), action: .delay(300)))
                let fd = open(m.path("d"), O_WRONLY | O_CREAT, 0o644)
                try #require(fd >= 0)
                let started = Date()
                #expect(close(fd) == 0)
                // A lower bound only: the rule sleeps 300 ms before the close returns; load can only add to it.
                #expect(Date().timeIntervalSince(started) >= 0.29)
                #expect(try m.fs.rules().first?.fired == 1)
                m.fs.unmount()
                let record = try #require(try OpLog.read(m.log).first { $0.op == .flush })
                #expect(record.result == 0 && record.fault == "slow-close")
            }
        }

        @Test func aHandleOpenedBeforeACrashClosesWithoutConsultingTheRules() throws {
            try withMount { m in
                #expect(Posix.write(m.path("h"), [1], fsync: true) == .ok(1))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                let fd = open(m.path("h"), O_RDWR)
                try #require(fd >= 0)
                try m.fs.crash(.keepNone)
                try m.fs.arm(FaultRule(id: "every-close", ops: [.flush], action: .errno(.EIO)))
                // Close works after a crash (docs/faultfs.md, Crash model); a fresh descriptor's close is failed.
                #expect(close(fd) == 0)
                let fresh = open(m.path("h"), O_RDONLY)
                try #require(fresh >= 0)
                #expect(close(fresh) == -1 && errno == EIO)
                #expect(try m.fs.rules().first?.matched == 1)
            }
        }
    }
}
