import Checks
import Foundation
import Scenario
import StoreModel

extension RunEnd {
    /// For `previous-backup-intact`: when a backup step failed in a run without a crash (a crash is
    /// `backup-durable`'s), every backup that had reported success before it is read again at the run's end, as
    /// its owner would open it next. Left out: a backup whose path a later step wrote again, and every backup when
    /// the failed step wrote into a reused directory (`destination: reuse`), when a later backup succeeded after the
    /// failure (its retention may prune old ones by design) or when the scenario damages backups on purpose (`damage`).
    static func measureBackupsAfterFailedSteps(_ record: inout RunRecord, scenario: Scenario) {
        guard record.crash == nil, !scenario.schedule.contains(where: { $0.action.rawValue == "damage" }) else { return }
        let steps = record.steps
        guard let failed = steps.indices.first(where: { steps[$0].action == .backup && !steps[$0].succeeded && !steps[$0].interrupted }),
              !steps[(failed + 1)...].contains(where: { $0.action == .backup && $0.succeeded }) else { return }
        // A failed step into a reused directory wrote over the earlier backup by the scenario's design
        // (`destination: reuse`, how migrate's append shows): what it left there is not a previous backup.
        let entry = steps[failed].index
        if scenario.schedule.indices.contains(entry), scenario.schedule[entry].destination == "reuse" { return }
        for position in steps.indices where position < failed {
            guard let backup = steps[position].backup, backup.store.state?.value != nil else { continue }
            let path = URL(fileURLWithPath: backup.store.path).standardizedFileURL.path
            if steps[(position + 1)...].contains(where: { $0.backup.map { URL(fileURLWithPath: $0.store.path).standardizedFileURL.path == path } ?? false }) {
                continue
            }
            var again = BackupAfterFailedStep(failedStep: steps[failed].label, state: nil, missing: false, error: nil)
            do {
                again.state = try StoreState.read(URL(fileURLWithPath: path))
            } catch StoreError.missingStore {
                again.missing = true
            } catch {
                again.error = "\(error)"
            }
            record.steps[position].backup?.afterFailedStep = again
        }
    }
}
