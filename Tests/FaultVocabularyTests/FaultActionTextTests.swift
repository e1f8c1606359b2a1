import FaultVocabulary
import Foundation
import Testing

/// The one fault grammar: every kind's text parses to its typed value and renders back to text that parses to the
/// same value; bad text is refused with what was expected; the control protocol's JSON round-trips.
@Suite struct FaultActionTextTests {
    static let examples: [(String, FaultAction)] = [
        ("errno EIO", .errno(.EIO)), ("errno EDQUOT", .errno(.EDQUOT)), ("short-write 0", .shortWrite(0)),
        ("short-read 512", .shortRead(512)), ("delay 60000", .delay(60_000)), ("fsync-lie", .fsyncLie),
        ("fsync-fail-clean", .fsyncFailClean), ("enospc-after 4096", .enospcAfter(4096)),
        ("edquot-after 0", .edquotAfter(0)),
        ("crash", .crash(.keepNone)), ("crash keep-prefix 3", .crash(.keepPrefix(3))), ("crash torn", .crash(.torn(fill: .zeros))),
        ("crash torn zeros", .crash(.torn(fill: .zeros))), ("crash torn garbage", .crash(.torn(fill: .garbage))),
        ("crash reorder", .crash(.reorder)), ("hold", .hold(60_000)), ("hold 250", .hold(250)),
    ]

    @Test func everyKindParsesAndRendersBack() throws {
        for (text, action) in Self.examples {
            #expect(try FaultAction(text: text) == action, "\(text)")
            #expect(try FaultAction(text: action.description) == action, "\(action.description)")
        }
        let kinds = Set(Self.examples.map(\.1.kind))
        #expect(kinds == Set(FaultAction.Kind.allCases), "an example of every kind")
    }

    @Test func badTextIsRefusedWithTheGrammar() {
        for bad in ["", "errno", "errno eio", "errno EWHATEVER", "short-write", "short-write -1", "short-write x", "delay 60001",
                    "fsync-lie now", "crash sideways", "crash keep-prefix", "crash torn pink", "hold 0", "teleport 3"] {
            do {
                let parsed = try FaultAction(text: bad)
                Issue.record("accepted '\(bad)' as \(parsed)")
            } catch {
                #expect(error.description.hasPrefix("must be errno NAME, short-write N"), "\(error)")
                #expect(error.text == bad)
            }
        }
    }

    @Test func protocolJSONRoundTripsAndKeepsItsShape() throws {
        for (_, action) in Self.examples {
            let data = try JSONEncoder().encode(FaultActionJSON(action))
            #expect(try JSONDecoder().decode(FaultActionJSON.self, from: data).action == action)
            let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
            #expect(object["kind"] as? String == action.kind.rawValue)
        }
        let errno = try JSONDecoder().decode(FaultActionJSON.self, from: Data(#"{"kind":"errno","errno":"EIO"}"#.utf8))
        #expect(errno.action == .errno(.EIO))
        let crash = try JSONDecoder().decode(FaultActionJSON.self, from: Data(#"{"kind":"crash"}"#.utf8))
        #expect(crash.action == .crash(.keepNone), "a crash action without a mode, as FaultFS wrote it before")
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FaultActionJSON.self, from: Data(#"{"kind":"teleport"}"#.utf8)) }
    }

    @Test func textCodableKeepsTheTextOfSavedWalks() throws {
        let data = try JSONEncoder().encode(["errno EIO", "crash torn garbage"].map { try FaultAction(text: $0) })
        #expect(String(decoding: data, as: UTF8.self) == #"["errno EIO","crash torn garbage"]"#)
        #expect(try JSONDecoder().decode([FaultAction].self, from: Data(#"["crash","hold"]"#.utf8)) == [.crash(.keepNone), .hold(60_000)])
    }

    @Test func crashModesAndHoldWork() throws {
        #expect(try CrashMode(text: "keep-prefix 0") == .keepPrefix(0))
        #expect(throws: FaultTextError.self) { try CrashMode(text: "keep-none 3") }
        #expect(CrashMode.torn(fill: .garbage).description == "torn garbage")
        for mode in [CrashMode.keepNone, .keepPrefix(4), .torn(fill: .garbage), .reorder] {
            let fields = mode.protocolFields
            #expect(try CrashMode(protocolMode: fields.mode, n: fields.n, fill: fields.fill) == mode)
        }
        #expect(try HoldWork(text: "commit 4") == .commit(4))
        #expect(try HoldWork(text: "checkpoint truncate") == .checkpoint(.truncate))
        for bad in ["commit 0", "commit 1001", "checkpoint sideways", "commit", "nap 3"] {
            #expect(throws: FaultTextError.self, "\(bad)") { try HoldWork(text: bad) }
        }
    }

    @Test func anActionThatDoesNotActOnItsOpsIsAProblem() {
        #expect(FaultAction.shortWrite(0).problem(ops: [.fsync]) == "short-write needs op write")
        #expect(FaultAction.shortWrite(0).problem(ops: [.any]) == nil)
        #expect(FaultAction.edquotAfter(10).problem(ops: [.rename]) == "edquot-after needs op write")
        #expect(FaultAction.errno(.ENOSYS).problem(ops: [.flush]) != nil)
        #expect(FaultAction.errno(.EIO).problem(ops: [.flush]) == nil)
    }
}
