import FaultVocabulary
import Foundation
import Scenario
import Testing

/// A crash during a step comes at one moment (issue 41): `delay`, `at_page` or `at_end`, read into
/// `Scenario.Crash.Moment` and rendered back as the key it was read from; combining them is refused with the
/// messages, and in the order, the parser has always given; the JSON keeps the three old keys, so campaign
/// fingerprints of scenarios hashed before stay the same.
@Suite struct CrashMomentKeyTests {
    static let step = "name: x\nschedule:\n  - backup: replace\nfaults:\n"

    @Test(arguments: [
        ("{during_step: 0, delay: 0.3}", Scenario.Crash.Moment.delay(0.3), "    delay: 0.3"),
        ("{during_step: 0}", .delay(0.05), "    delay: 0.05"),
        ("{during_step: 0, at_page: 40}", .atPage(40), "    at_page: 40"),
        ("{during_step: 0, at_end: true}", .atEnd, "    at_end: true"),
        ("{during_step: 0, at_end: false}", .delay(0.05), "    delay: 0.05"),
    ] as [(String, Scenario.Crash.Moment, String)])
    func eachMomentReadsAndRendersBack(_ input: (String, Scenario.Crash.Moment, String)) throws {
        let (crash, moment, line) = input
        let parsed = try ScenarioParser.parse(yaml: Self.step + "  crash: \(crash)\n")
        #expect(parsed.faults.crash?.moment == moment)
        let yaml = ScenarioYAML.render(parsed)
        #expect(yaml.components(separatedBy: "\n").filter { $0.hasPrefix("    delay:") || $0.hasPrefix("    at_") } == [line], "\(yaml)")
        #expect(try ScenarioParser.parse(yaml: yaml) == parsed)
    }

    /// Each combination of moments, where the parser refuses it and with what. The last two show the order of the
    /// checks: at_page's before at_end's.
    static let refused: [(yaml: String, line: Int, column: Int, message: String)] = [
        ("name: x\nfaults:\n  crash: {after_commits: 3, at_page: 4}\n", 3, 38,
         "faults.crash.at_page needs during_step (the step whose copy it stops)"),
        (step + "  crash: {during_step: 0, at_page: 4, delay: 1}\n", 5, 36, "faults.crash takes at_page or delay, not both"),
        ("name: x\nfaults:\n  crash: {after_commits: 3, at_end: true}\n", 3, 37,
         "faults.crash.at_end needs during_step (the step whose end it waits for)"),
        (step + "  crash: {during_step: 0, at_end: true, delay: 1}\n", 5, 35, "faults.crash takes one of at_end, at_page and delay"),
        (step + "  crash: {during_step: 0, at_end: true, at_page: 2}\n", 5, 35, "faults.crash takes one of at_end, at_page and delay"),
        ("name: x\nfaults:\n  crash: {after_commits: 3, at_page: 4, at_end: true}\n", 3, 38, "faults.crash.at_page needs during_step"),
        (step + "  crash: {during_step: 0, at_page: 4, delay: 1, at_end: true}\n", 5, 36, "faults.crash takes at_page or delay, not both"),
    ]

    @Test func combiningMomentsIsRefusedAsBefore() {
        for case let (yaml, line, column, message) in Self.refused {
            expectScenarioError(yaml, line: line, column: column, message: message)
        }
    }

    @Test func theJSONKeepsTheOldKeys() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let shapes: [(Scenario.Crash.Moment, CrashMode, String)] = [
            (.delay(0.3), .keepNone, #"{"delay":0.3,"duringStep":0,"mode":"keep-none"}"#),
            (.atPage(40), .reorder, #"{"atPage":40,"delay":0.05,"duringStep":0,"mode":"reorder"}"#),
            (.atEnd, .torn(fill: .zeros), #"{"atEnd":true,"delay":0.05,"duringStep":0,"mode":"torn"}"#),
        ]
        for (moment, mode, json) in shapes {
            var crash = Scenario.Crash()
            crash.duringStep = 0
            crash.moment = moment
            crash.mode = mode
            #expect(String(decoding: try encoder.encode(crash), as: UTF8.self) == json)
            #expect(try JSONDecoder().decode(Scenario.Crash.self, from: Data(json.utf8)) == crash)
        }
        var afterCommits = Scenario.Crash()
        afterCommits.afterCommits = 9
        #expect(String(decoding: try encoder.encode(afterCommits), as: UTF8.self) == #"{"afterCommits":9,"delay":0.05,"mode":"keep-none"}"#)
    }
}
