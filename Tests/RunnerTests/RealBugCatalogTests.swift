import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// The real-bug catalog (Scenarios/real-bugs): every scenario shows what it expects on one seed (a bug scenario
/// its violation, a correct counterpart no alarm), as CI runs the catalog; `lifeboat run Scenarios/real-bugs
/// --seeds 1-3 --catalog docs/real-bugs.md` measures three seeds and writes the document.
@Suite(.ownThread) struct RealBugCatalogTests {
    static let folder = DrillTests.scenarios.appendingPathComponent("real-bugs")

    static var scenarios: [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [])
            .filter { $0.hasSuffix(".yaml") && !$0.hasPrefix("_") }.sorted()
    }

    @Test func catalogListsTheEntriesAndEveryScenarioCitesItsEntry() throws {
        let catalog = try BugCatalog.parse(file: Self.folder.appendingPathComponent(BugCatalog.fileName))
        #expect(catalog.entries.map(\.id) == (1...24).map { "B\($0)" })
        var covered: Set<String> = []
        for file in Self.scenarios {
            let scenario = try ScenarioParser.parse(file: Self.folder.appendingPathComponent(file))
            #expect(scenario.name + ".yaml" == file, "\(file): the scenario's name is its file name")
            let id = try #require(BugCatalog.entryID(ofScenario: scenario.name), "\(file) does not start with bNN-")
            let entry = try #require(catalog.entries.first { $0.id == id }, "\(file): no entry \(id)")
            #expect(entry.sources.contains { scenario.description.contains($0) }, "\(file) cites none of \(id)'s sources")
            if scenario.expect == .pass {
                #expect(scenario.name.hasSuffix("-correct"), "\(file): a counterpart's name ends in -correct")
            } else {
                covered.insert(id)
            }
        }
        for entry in catalog.entries where !covered.contains(entry.id) {
            #expect(entry.notReproduced != nil, "\(entry.id) has no scenario and no reason why")
        }
    }

    /// A bug scenario whose mistake is a timing race (two copies that must straddle a checkpoint: B2, B19, B21) can
    /// miss in one run, so it gets up to three runs and must show its violation in one of them; the catalog
    /// document gives each entry's rate over seeds. A correct counterpart gets one run and must raise no alarm.
    @Test(arguments: scenarios)
    func realBugScenarioShowsItsExpectationOnOneSeed(_ name: String) throws {
        let file = Self.folder.appendingPathComponent(name)
        var scenario = try ScenarioParser.parse(file: file)
        scenario.seed = 1
        let attempts = scenario.expect == .pass ? 1 : 3
        var misses: [String] = []
        for attempt in 1...attempts {
            let scratch = try Scratch("real-bug")
            let (result, _) = try DrillTests.run(scenario, file: file.path, scratch: scratch)
            #expect(result.errors.isEmpty, "\(result.errors)")
            #expect(result.seconds <= 60, "\(name) took \(result.seconds) s; a catalog reproduction must take 60 s or less")
            if result.expectationMet { return }
            let violated = result.verdicts.filter { $0.status == .violated }.map { "\($0.invariant): \($0.evidence.first ?? $0.summary)" }
            misses.append("run \(attempt): violated \(violated); errors \(result.errors)")
        }
        Issue.record("\(name) expected \(scenario.expect.description) in one of \(attempts) run(s): \(misses.joined(separator: "; "))")
    }
}
