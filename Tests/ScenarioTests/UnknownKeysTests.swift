import Foundation
import Scenario
import Testing

/// A file with several misspelt keys gets every one in a single run, each at its line and column with the
/// closest key the parser knows (the user trial fixed `transactons` first and met `after_comits` on the next run).
struct UnknownKeysTests {
    @Test func everyUnknownKeyIsReportedAtOnceWithTheKeyItMeant() {
        let yaml = """
            name: typos
            writers:
              transactons: 5
              count: 2
            faults:
              crash:
                after_commits: 3
                dealy: 0.5
            schedule:
              - backup: replace
                after_comits: 3
            """
        do {
            _ = try ScenarioParser.parse(yaml: yaml, file: "typos.yaml")
            Issue.record("accepted a file with three unknown keys")
        } catch let error as ScenarioError {
            let all = [error] + error.others
            #expect(all.map(\.line) == [3, 8, 11], "\(error)")
            #expect(all.map(\.column) == [3, 5, 5], "\(error)")
            #expect(all[0].message.contains("unknown key 'transactons' in scenario.writers") && all[0].message.hasSuffix("did you mean 'transactions'?"))
            #expect(all[1].message.contains("unknown key 'dealy'") && all[1].message.hasSuffix("did you mean 'delay'?"))
            #expect(all[2].message.contains("unknown key 'after_comits'") && all[2].message.hasSuffix("did you mean 'after_commits'?"))
            let lines = error.description.split(separator: "\n")
            #expect(lines.count == 3 && lines.allSatisfy { $0.hasPrefix("typos.yaml:") && $0.contains(": error: unknown key '") })
        } catch {
            Issue.record("unexpected error type: \(error)")
        }
    }

    @Test func aKeyFarFromEveryKnownOneGetsNoSuggestion() {
        #expect(throws: ScenarioError.self) { try ScenarioParser.parse(yaml: "name: x\nstore:\n  colour: blue\n") }
        do { _ = try ScenarioParser.parse(yaml: "name: x\nstore:\n  colour: blue\n") } catch let error as ScenarioError {
            #expect(!error.message.contains("did you mean"), "\(error)")
            #expect(error.others.isEmpty)
        } catch { Issue.record("\(error)") }
    }

    /// An unknown key and a bad value elsewhere come out together, in file order.
    @Test func anUnknownKeyIsNotHiddenByALaterBadValue() {
        do {
            _ = try ScenarioParser.parse(yaml: "name: x\nstore:\n  objets: 5\nwriters:\n  count: many\n", file: "mixed.yaml")
            Issue.record("accepted")
        } catch let error as ScenarioError {
            let all = [error] + error.others
            #expect(all.map(\.line) == [3, 5], "\(error)")
            #expect(all[0].message.hasSuffix("did you mean 'objects'?"))
            #expect(all[1].message.contains("writers.count must be a whole number"))
        } catch { Issue.record("\(error)") }
    }

    @Test func editDistanceCountsSingleCharacterEdits() {
        #expect(KeySuggestion.editDistance("transactons", "transactions") == 1)
        #expect(KeySuggestion.editDistance("dealy", "delay") == 2)
        #expect(KeySuggestion.editDistance("", "abc") == 3)
        #expect(KeySuggestion.editDistance("same", "same") == 0)
    }
}
