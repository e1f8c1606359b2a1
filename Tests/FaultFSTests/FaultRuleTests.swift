import Foundation
import Synchronization
import Testing
@testable import FaultFS
#if canImport(Glibc)
import Glibc
#endif

extension MountTests {
    /// Fault rules armed at run time on a live mount.
    @Suite struct FaultRuleTests {
        @Test func errnoFiresOnExactlyTheNthMatchingWrite() throws {
            try withMount { m in
                #expect(Posix.write(m.path("other"), [0]) == .ok(1))
                let id = try m.fs.arm(FaultRule(ops: [.write], path: "/f*", trigger: .nth(3), action: .errno(.EIO)))
                var outcomes: [Outcome] = []
                for i in 0..<5 {
                    #expect(Posix.write(m.path("other"), [1], at: Int64(i)) == .ok(1))
                    outcomes.append(Posix.write(m.path("f"), [UInt8(i)], at: Int64(i)))
                }
                #expect(outcomes == [.ok(1), .ok(1), .err(EIO), .ok(1), .ok(1)])
                let status = try #require(try m.fs.rules().first { $0.rule.id == id })
                #expect(status.matched == 5 && status.fired == 1)
                try m.fs.disarm(id)
                #expect(try m.fs.rules().isEmpty)
            }
        }

        @Test func afterKFailsEveryLaterCall() throws {
            try withMount { m in
                #expect(Posix.write(m.path("g"), [1]) == .ok(1))
                try m.fs.arm(FaultRule(ops: [.open], path: "/g", trigger: .after(2), action: .errno(.EACCES)))
                let results = (0..<4).map { _ in Posix.read(m.path("g")) }
                #expect(results == [.bytes([1]), .bytes([1]), .err(EACCES), .err(EACCES)])
                try m.fs.clearRules()
                #expect(Posix.read(m.path("g")) == .bytes([1]))
            }
        }

        @Test func enospcBudgetCutsTheCrossingWriteThenFails() throws {
            try withMount { m in
                try m.fs.arm(FaultRule(ops: [.write], action: .enospcAfter(1000)))
                let fd = open(m.path("big"), O_WRONLY | O_CREAT, 0o644)
                defer { close(fd) }
                let chunk = [UInt8](repeating: 7, count: 600)
                #expect(chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, 600, 0) } == 600)
                #expect(chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, 600, 600) } == 400)
                #expect(chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, 600, 1000) } == -1 && errno == ENOSPC)
                #expect(try m.fs.rules().first?.bytesUsed == 1000)
            }
        }

        /// A quota is the same budget with EDQUOT: the crossing write is cut short, the next one fails.
        @Test func edquotBudgetCutsTheCrossingWriteThenFailsWithEDQUOT() throws {
            try withMount { m in
                try m.fs.arm(FaultRule(ops: [.write], path: "/q", action: .edquotAfter(1000)))
                let fd = open(m.path("q"), O_WRONLY | O_CREAT, 0o644)
                defer { close(fd) }
                let chunk = [UInt8](repeating: 7, count: 600)
                #expect(chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, 600, 0) } == 600)
                #expect(chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, 600, 600) } == 400)
                #expect(chunk.withUnsafeBytes { pwrite(fd, $0.baseAddress, 600, 1000) } == -1 && errno == EDQUOT)
                let status = try #require(try m.fs.rules().first)
                #expect(status.bytesUsed == 1000 && status.fired == 2 && status.rule.action == .edquotAfter(1000))
            }
        }

        @Test func shortWriteReturnsTheShortCount() throws {
            try withMount { m in
                try m.fs.arm(FaultRule(ops: [.write], path: "/s", trigger: .nth(1), action: .shortWrite(10)))
                #expect(Posix.write(m.path("s"), [UInt8](repeating: 1, count: 100)) == .ok(10))
                #expect(Posix.write(m.path("s"), [UInt8](repeating: 2, count: 100)) == .ok(100))
            }
        }

        @Test func shortReadReturnsAtMostNBytes() throws {
            try withMount { m in
                #expect(Posix.write(m.path("sr"), [UInt8](repeating: 3, count: 100)) == .ok(100))
                try m.fs.arm(FaultRule(ops: [.read], path: "/sr", trigger: .always, action: .shortRead(5)))
                // The kernel reads whole pages; a short reply looks like EOF to it, so the caller sees 5 bytes.
                #expect(Posix.read(m.path("sr"), count: 100) == .bytes([UInt8](repeating: 3, count: 5)))
            }
        }

        @Test func fsyncLieReturnsSuccessButDataIsLostOnCrash() throws {
            try withMount { m in
                #expect(Posix.write(m.path("l"), [1], fsync: true) == .ok(1))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                try m.fs.arm(FaultRule(ops: [.fsync], path: "/l", action: .fsyncLie))
                #expect(Posix.write(m.path("l"), [2, 2], fsync: true) == .ok(2))
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("l")) == [1])
            }
        }

        @Test func fsyncFailCleanReturnsEIOAndDropsTheData() throws {
            try withMount { m in
                #expect(Posix.write(m.path("c"), [1], fsync: true) == .ok(1))
                #expect(Posix.fsyncDir(m.mnt.path) == .ok(0))
                try m.fs.arm(FaultRule(ops: [.fsync], path: "/c", trigger: .nth(1), action: .fsyncFailClean))
                #expect(Posix.write(m.path("c"), [5, 5, 5], fsync: true) == .err(EIO))
                // The pages count as written: nothing is pending any more, and a later fsync succeeds.
                #expect(try m.fs.status().files.isEmpty)
                #expect(Posix.fsyncFile(m.path("c")) == .ok(0))
                try m.fs.crash(.keepNone)
                #expect(Posix.contents(m.path("c")) == [1])
            }
        }

        @Test func namespaceOpsFailOnlyWhenTheirRuleFires() throws {
            try withMount { m in
                try m.fs.arm(FaultRule(ops: [.rename], trigger: .nth(1), action: .errno(.EXDEV)))
                try m.fs.arm(FaultRule(ops: [.create], path: "/ro*", action: .errno(.EROFS)))
                #expect(Posix.write(m.path("a"), [1]) == .ok(1))
                #expect(rename(m.path("a"), m.path("b")) == -1 && errno == EXDEV)
                #expect(rename(m.path("a"), m.path("b")) == 0)
                #expect(Posix.write(m.path("ro1"), [1]) == .err(EROFS))
                #expect(!Posix.exists(m.path("ro1")))
                let rules = try m.fs.rules()
                #expect(rules.map(\.fired) == [1, 1])
            }
        }

        /// `hold`: the call waits before it runs until `release` names the rule (try --deep's interleavings: the
        /// runner commits and checkpoints meanwhile); the daemon reports the calls it holds; other calls go on.
        @Test func holdKeepsTheCallWaitingUntilReleased() throws {
            try withMount { m in
                #expect(Posix.write(m.path("h"), [7]) == .ok(1))
                try m.fs.arm(FaultRule(id: "held", ops: [.open], path: "/h", trigger: .nth(1), action: .hold(30_000)))
                final class Result: Sendable { let value = Mutex<Outcome?>(nil) }
                let result = Result()
                let path = m.path("h")
                Thread { let outcome = Posix.read(path); result.value.withLock { $0 = outcome } }.start()
                var holding = 0
                for _ in 0..<5_000 where holding == 0 {
                    holding = try m.fs.rules().first?.holding ?? 0
                    usleep(1_000)
                }
                #expect(holding == 1, "the daemon reports the held open")
                usleep(100_000)
                #expect(result.value.withLock { $0 } == nil, "the open waits for release")
                // Other calls go on meanwhile, the held file's own data too.
                #expect(Posix.write(m.path("other"), [1, 2]) == .ok(2))
                #expect(try m.fs.release("held") == 1)
                for _ in 0..<5_000 where result.value.withLock({ $0 }) == nil { usleep(1_000) }
                #expect(result.value.withLock { $0 } == .bytes([7]))
                #expect(try m.fs.rules().first?.holding == 0)
                // nth 1: the next open is not held.
                #expect(Posix.read(path) == .bytes([7]))
                #expect(try m.fs.release("held") == 0, "nothing left to release")
                let invalid = FaultRule(ops: [.open], action: .hold(0)).validationError()
                #expect(invalid?.contains("hold needs") == true)
            }
        }

        @Test func delayRuleFiresAndTheCallStillSucceeds() throws {
            try withMount { m in
                try m.fs.arm(FaultRule(id: "slow", ops: [.fsync], action: .delay(5)))
                #expect(Posix.write(m.path("d"), [1], fsync: true) == .ok(1))
                #expect(try m.fs.rules().first?.fired == 1)
            }
        }
    }
}
