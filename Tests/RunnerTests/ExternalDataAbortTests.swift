import Foundation
import LifeboatTestSupport
import Reporting
import Runner
import Scenario
import Testing

/// ENOSPC while a writer writes an attachment's interim file: Core Data raises an exception there and the app
/// aborts, so the writer process ends (status 134) and the transaction stays an unacknowledged intent.
@Suite(.serialized, .ownThread) struct ExternalDataAbortTests {
    @Test func enospcOnAnInterimFileEndsTheWriterWithoutAnAck() throws {
        let scratch = try Scratch("interim-enospc")
        let scenario = try ScenarioParser.parse(yaml: """
            name: interim-enospc
            seed: 3
            store: {objects: 40, blob_fraction: 0}
            writers: {count: 1, transactions: 60, rate: 0, blob_fraction: 1, blob_size: 120KiB, mix: {insert: 100, update: 0, delete: 0, link: 0}}
            faults:
              rules:
                - ops: [create]
                  path: "*.interim"
                  nth: 4
                  action: errno ENOSPC
            invariants: [integrity]
            expect: pass
            """)
        var settings = ScenarioRunner.Settings(reportsRoot: scratch.path("reports"), scratchRoot: scratch.path("scratch"))
        settings.makeVolume = StoreVolumes.make
        settings.keepScratch = true
        let (result, directory) = try ScenarioRunner(scenario: scenario, file: "interim-enospc", settings: settings).run()
        #expect(result.expectationMet, "\(result.verdicts.filter { $0.status == .violated })")
        let log = try String(contentsOf: directory.url.appendingPathComponent("run.log"), encoding: .utf8)
        #expect(log.contains("exited with 134"), "\(log.suffix(2000))")
        let history = try #require(FileManager.default.enumerator(at: scratch.path("scratch"), includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.first { $0.lastPathComponent == "writer-1.jsonl" })
        let states = try String(contentsOf: history, encoding: .utf8).split(separator: "\n")
            .compactMap { try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }.map { $0["state"] as? String ?? "" }
        #expect(states.suffix(2) == ["ack", "intent"], "the last transaction is an intent with no ack, and no done: \(states.suffix(4))")
        #expect(states.filter { $0 == "ack" }.count == 3)
    }
}
