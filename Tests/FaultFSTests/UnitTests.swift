import Foundation
import PropertyBased
import SeededRandomness
import Testing
@testable import FaultFS

/// Tests of the value types and pure logic, without a mount.
@Suite struct FaultRuleCodingTests {
    @Test func ruleDecodesFromDocumentedJSON() throws {
        let json = #"{"ops":["write","fsync"],"path":"*.db-wal","trigger":{"kind":"nth","n":3},"action":{"kind":"errno","errno":"EIO"}}"#
        let rule = try JSONDecoder().decode(FaultRule.self, from: Data(json.utf8))
        #expect(rule.ops == [.write, .fsync])
        #expect(rule.path == "*.db-wal")
        #expect(rule.trigger == .nth(3))
        #expect(rule.action == .errno(.EIO))
        #expect(rule.validationError() == nil)
    }

    @Test func everyTriggerAndActionRoundTrips() throws {
        let triggers: [FaultTrigger] = [.nth(2), .after(5), .probability(0.25), .always]
        let actions: [FaultAction] = [.errno(.ENOSPC), .shortWrite(7), .shortRead(3), .delay(10), .fsyncLie,
                                      .fsyncFailClean, .enospcAfter(4096), .crash]
        for t in triggers {
            for a in actions {
                let rule = FaultRule(id: "x", ops: [.any], path: "/a*", trigger: t, action: a)
                let back = try JSONDecoder().decode(FaultRule.self, from: JSONEncoder().encode(rule))
                #expect(back == rule)
            }
        }
    }

    @Test func invalidRulesAreRejectedWithAMessage() throws {
        // An unknown errno name cannot make a rule: decoding it fails, naming it.
        let bogus = #"{"ops":["write"],"action":{"kind":"errno","errno":"EBOGUS"}}"#
        let error = #expect(throws: DecodingError.self) { try JSONDecoder().decode(FaultRule.self, from: Data(bogus.utf8)) }
        if case .dataCorrupted(let context)? = error {
            #expect(context.debugDescription.hasPrefix("unknown errno name EBOGUS ("))
        } else {
            Issue.record("not a corrupted value: \(String(describing: error))")
        }
        #expect(FaultRule(ops: [], action: .errno(.EIO)).validationError() != nil)
        #expect(FaultRule(ops: [.write], trigger: .nth(0), action: .errno(.EIO)).validationError() != nil)
        #expect(FaultRule(ops: [.read], trigger: .probability(1.5), action: .errno(.EIO)).validationError() != nil)
        #expect(FaultRule(ops: [.read], action: .shortWrite(3)).validationError() != nil)
        #expect(FaultRule(ops: [.write], action: .fsyncLie).validationError() != nil)
        let bad = #"{"ops":["write"],"action":{"kind":"explode"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FaultRule.self, from: Data(bad.utf8)) }
        let badOp = #"{"ops":["teleport"],"action":{"kind":"fsync-lie"}}"#
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FaultRule.self, from: Data(badOp.utf8)) }
    }

    @Test func engineFiresOnExactlyTheNthMatchingCall() {
        let engine = FaultEngine(seed: 9)
        guard case .success(let id) = engine.arm(FaultRule(ops: [.write], path: "*.wal", trigger: .nth(3), action: .errno(.EIO))) else {
            Issue.record("arm failed")
            return
        }
        var fired: [Int] = []
        for i in 1...6 {
            _ = engine.evaluate(.write, paths: ["/x.db"]) // does not match the glob
            if engine.evaluate(.write, paths: ["/x.wal"]).errnoValue != nil { fired.append(i) }
        }
        #expect(fired == [3])
        #expect(engine.list().first?.matched == 6)
        #expect(engine.list().first?.fired == 1)
        #expect(engine.disarm(id))
        #expect(engine.list().isEmpty)
    }

    @Test func probabilityTriggerIsDeterministicForASeed() {
        func pattern(seed: UInt64) -> [Bool] {
            let e = FaultEngine(seed: seed)
            _ = e.arm(FaultRule(id: "p", ops: [.read], trigger: .probability(0.5), action: .errno(.EIO)))
            return (0..<64).map { _ in e.evaluate(.read, paths: ["/f"]).errnoValue != nil }
        }
        #expect(pattern(seed: 1) == pattern(seed: 1))
        #expect(pattern(seed: 1) != pattern(seed: 2))
        #expect(pattern(seed: 1).contains(true) && pattern(seed: 1).contains(false))
    }
}

@Suite struct UnsyncedCacheTests {
    @Test func tornCutIsASectorBoundaryInsideTheWrite() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...100_000), Gen.int(in: 1...20_000)) { off, len in
            var rng = SeededRandom(seed: UInt64(off * 31 + len))
            let cut = DeviceTear.tornCut(offset: Int64(off), length: Int64(len), device: .default) { rng.next() }
            #expect(cut >= Int64(off) && cut < Int64(off + len))
            #expect(cut == Int64(off) || cut % 512 == 0)
            if (Int64(off) / 512 + 1) * 512 < Int64(off + len) { #expect(cut > Int64(off)) }
        }
    }
}

@Suite struct CommandLineTests {
    @Test func mountArgumentsParse() throws {
        let o = try FaultFSCommandLine.parseMount(["/b", "/m", "--seed", "42", "--log", "/l", "--log-data", "--control", "/s"]).get()
        #expect(o == DaemonOptions(backing: "/b", mountpoint: "/m", control: "/s", log: "/l", logData: true, seed: 42))
        #expect(o.hostSync == HostSync.defaultSetting)
        for mode in [HostSync.on, .off] {
            #expect(try FaultFSCommandLine.parseMount(["/b", "/m", "--host-sync", mode.rawValue]).get().hostSync == mode)
        }
    }

    @Test func badArgumentsGiveMessagesNotCrashes() {
        for bad in [[], ["/b"], ["/b", "/m", "--seed"], ["/b", "/m", "--seed", "minus"], ["/b", "/m", "--frob"],
                    ["/b", "/m", "--log-data"], ["/b", "/m", "/x"], ["/b", "/m", "--host-sync"], ["/b", "/m", "--host-sync", "yes"]] {
            guard case .failure(let e) = FaultFSCommandLine.parseMount(bad) else {
                Issue.record("accepted \(bad)")
                continue
            }
            #expect(!e.description.isEmpty)
        }
        for bad in [["crash", "keep-prefix"], ["crash", "sideways"], ["disarm"], ["arm", "{"], ["launch"], ["ping", "x"]] {
            guard case .failure = FaultFSCommandLine.parseControl(bad) else {
                Issue.record("accepted ctl \(bad)")
                continue
            }
        }
        #expect(FaultFSCommandLine.run(["faultfs", "explode"]) == 2)
        for bad in [["release"], ["device", "{"], ["device", #"{"sector":3,"atomicWrite":0,"powersafeOverwrite":true}"#]] {
            guard case .failure = FaultFSCommandLine.parseControl(bad) else {
                Issue.record("accepted ctl \(bad)")
                continue
            }
        }
        #expect(FaultFSCommandLine.run(["faultfs", "mount", "/nonexistent-backing", "/nonexistent-mnt"]) == 1)
    }
}
