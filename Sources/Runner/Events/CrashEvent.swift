import Checks
import Foundation
import Reporting
import Scenario
import StoreModel

/// `faults.crash` at a commit count or a second: the power fails. (A crash during a step is carried by that
/// step's event and run by its handler; a `crash` fault rule is noticed by the schedulers, `crashIfFrozen`.)
struct CrashEvent: RunEventKind {
    static let kind = "crash"
    var kinds: [String] { [Self.kind] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let plan = event.crash else { return EventOutcome() }
        let entries = try context.crashes.simulate(plan, children: context.children, volume: context.volume, live: context.live,
                                                   reason: "after \(event.commits) commits")
        return EventOutcome(entries: entries, crashed: true)
    }
}
