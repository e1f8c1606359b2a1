import Checks
import Foundation
import Reporting
import Scenario
import StoreModel
import Workload

/// A copy step with `coordinator: app`, run by the app itself rather than a child of its own.
struct InAppMigrateStep {
    /// `backup: migrate` with `coordinator: app`: the app (the first running writer of the round) migrates its
    /// store on its own coordinator between two of its transactions (`InAppMigrate`). The backup is judged as
    /// any other; the app's coordinator then holds the copy, so its later commits go to the backup and
    /// `live-store-unaffected` finds them missing from the live store, the pitfall seeds 000 and 001 warn about.
    func run(_ index: Int, _ step: Scenario.Step, _ context: EventContext) throws -> [RunRecord.Entry] {
        let (scenario, now, note) = (context.scenario, context.now, context.note)
        let repeated = context.recorded().operations.filter { $0.name.hasPrefix("backup-\(index)") }.count
        let name = "backup-\(index)" + (step.times > 1 ? ".\(repeated + 1)" : "")
        let round = context.writers.current.number
        guard let app = context.writers.children.first(where: { $0.isRunning && Int($0.name.dropFirst("writer-".count)).map { WriterRound.round(of: $0) } == round })
        else {
            return [.error("\(name): no writer of round \(round) is running to migrate on its own coordinator (coordinator: app)")]
        }
        let base = scenario.faults.backupsOnVolume ? context.volume.directory : context.scratch
        let directory = base.appendingPathComponent("backups/\(index)" + (step.destination == "reuse" ? "" : "-\(repeated + 1)"))
        let target = directory.appendingPathComponent(context.live.lastPathComponent)
        let request = Self.request(scratch: context.scratch, writer: app.name)
        let answer = URL(fileURLWithPath: request.path + ".done")
        try? FileManager.default.removeItem(at: answer)
        let start = now()
        note(name, .start, "migratePersistentStore on \(app.name)'s own coordinator (the app's) to \(target.path)")
        let removeCopy = step.copy.savesAfterMigrate == .fail
        try JSONEncoder().encode(InAppMigrate.Request(destination: target.path, removeCopy: removeCopy)).write(to: request, options: .atomic)
        while !FileManager.default.fileExists(atPath: answer.path), app.isRunning {
            try context.clock.checkDeadline()
            usleep(2_000)
        }
        let response = (try? Data(contentsOf: answer)).flatMap { try? JSONDecoder().decode(InAppMigrate.Response.self, from: $0) }
        let end = now()
        let succeeded = response != nil && response?.error == nil
        var details = ["coordinator": "app", "app": app.name]
        if removeCopy { details["savesAfterMigrate"] = "fail" }
        if let response { (details["objects"], details["bytesLoaded"]) = (String(response.objects), String(response.bytesLoaded)) }
        let error = response?.error ?? (response == nil ? "\(app.name) ended before it served the request" : nil)
        let operation = RunRecord.Entry.operation(OperationSummary(name: name, action: "backup", strategy: step.strategy, start: start, end: end,
                                                                   succeeded: succeeded, store: target.path, details: details, error: error))
        // Judged as any backup: the step's label says on whose coordinator it ran.
        var stepRecord = StepRecord(name: name, index: index, action: .backup, strategy: "\(step.strategy), on the app's coordinator",
                                    start: start, end: end, round: round, succeeded: succeeded, interrupted: false, error: succeeded ? nil : error)
        guard succeeded else {
            note(name, .end, "failed: \(error ?? "")")
            return [operation, .step(stepRecord)]
        }
        note(name, .end, removeCopy
             ? "done: \(app.name) removed the copy from its coordinator too, which now holds no store, so its later saves fail"
             : "done: \(app.name)'s coordinator now holds the copy, so its later saves go to \(target.path), not to the live store")
        stepRecord.backup = BackupMeasurement(store: Measure.store(target, label: stepRecord.label, state: true),
                                              onVolume: target.standardizedFileURL.path.hasPrefix(context.volume.directory.standardizedFileURL.path + "/"))
        return [operation, .step(stepRecord), context.liveAtStart.metadata(context.live)]
    }

    /// The request file a writer looks for before each transaction (`Writer.Configuration.inAppMigrateRequest`).
    static func request(scratch: URL, writer: String) -> URL {
        scratch.appendingPathComponent("in-app-migrate-\(writer).json")
    }
}
