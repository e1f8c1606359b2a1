import Foundation
import Testing
@testable import FaultFS

/// The control protocol's verbs are written once (`ControlVerb`): the command line builds every one of them, its
/// help and docs/faultfs.md's protocol table name every one, in order, and an unknown one is refused by name.
@Suite struct ControlVerbTests {
    static let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs")

    /// Every verb of the protocol is one the command line builds (and its help names), and it travels as its wire
    /// name: the daemon, the mount and `faultfs ctl` share `ControlVerb`.
    @Test func everyControlVerbIsOnTheCommandLineAndInItsHelp() throws {
        let arguments: [ControlVerb: [String]] = [
            .disarm: ["r1"], .release: ["r1"], .crash: ["torn", "zeros"], .logMark: ["a", "label"], .fsyncFailure: ["xfs"],
            .device: [#"{"sector":4096,"atomicWrite":4096,"powersafeOverwrite":true}"#],
            .arm: [#"{"ops":["write"],"action":{"kind":"errno","errno":"EIO"}}"#],
        ]
        for verb in ControlVerb.allCases {
            let line = try FaultFSCommandLine.parseControl([verb.rawValue] + (arguments[verb] ?? [])).get()
            let request = try JSONDecoder().decode(ControlRequest.self, from: line)
            #expect(request.verb == verb)
            #expect(String(decoding: line, as: UTF8.self).contains(#""verb":"\#(verb.rawValue)""#))
            #expect(FaultFSCommandLine.usage.contains(verb.rawValue), "help does not name \(verb.rawValue)")
        }
        let device = try JSONDecoder().decode(ControlRequest.self, from: FaultFSCommandLine.parseControl(["device", arguments[.device]![0]]).get())
        #expect(device.device == DeviceProfile(sector: 4096, atomicWrite: 4096, powersafeOverwrite: true))
        let none = try JSONDecoder().decode(ControlRequest.self, from: FaultFSCommandLine.parseControl(["fsync-failure", "none"]).get())
        #expect(none.fsyncFailure == FsyncFailureSetting.none)
        do {
            _ = try JSONDecoder().decode(ControlRequest.self, from: Data(#"{"verb":"teleport"}"#.utf8))
            Issue.record("an unknown verb decoded")
        } catch DecodingError.dataCorrupted(let context) {
            #expect(context.debugDescription == "unknown verb teleport (\(ControlVerb.names))")
        }
    }

    @Test func theProtocolTableHasARowForEveryVerbInOrder() throws {
        let text = try String(contentsOf: Self.docs.appendingPathComponent("faultfs.md"), encoding: .utf8)
        let section = try #require(text.components(separatedBy: "\n## Control protocol\n").dropFirst().first?
            .components(separatedBy: "\n## ").first)
        let verbs = section.components(separatedBy: "\n").filter { $0.hasPrefix("| `{\"verb\":\"") }.compactMap { line in
            line.dropFirst(#"| `{"verb":""#.count).split(separator: "\"").first.map(String.init)
        }
        #expect(verbs == ControlVerb.allCases.map(\.rawValue), "docs/faultfs.md's control protocol table, in ControlVerb's order")
    }
}
