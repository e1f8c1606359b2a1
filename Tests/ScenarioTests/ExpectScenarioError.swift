import Scenario
import Testing

/// Parses `yaml` and expects it refused at `line`:`column` with a message containing `message`: the parser's
/// first mistake, or, with `amongAll`, any of the mistakes it reports in one pass (every unknown key at once).
/// The one way the key tests check bad input.
func expectScenarioError(_ yaml: String, line: Int, column: Int, message: String, amongAll: Bool = false,
                         sourceLocation: SourceLocation = #_sourceLocation) {
    do {
        _ = try ScenarioParser.parse(yaml: yaml)
        Issue.record("accepted: \(yaml)", sourceLocation: sourceLocation)
    } catch let error as ScenarioError {
        let reported = amongAll ? [error] + error.others : [error]
        #expect(reported.contains { $0.line == line && $0.column == column && $0.message.contains(message) }, "\(reported)",
                sourceLocation: sourceLocation)
    } catch {
        Issue.record("not a ScenarioError: \(error)", sourceLocation: sourceLocation)
    }
}
