import Foundation
import Scenario

/// `sidecar: NAME` with `action: kill | stop | start | restart`: a backup tool killed where it stands (SIGKILL to
/// its process group), stopped cleanly (SIGTERM, then SIGKILL after its grace), started again, or both, at the
/// entry's time. A later instance logs as `sidecar-NAME.2`, and so on.
struct SidecarActionEvent: RunEventKind {
    var kinds: [String] { ["sidecar"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        guard let step = event.step, let index = event.index, let action = step.sidecarAction else { return EventOutcome() }
        let name = step.strategy
        guard let sidecar = context.scenario.sidecars.first(where: { $0.name == name }) else {
            return EventOutcome(entries: [.error("schedule[\(index)]: no sidecar named '\(name)'")])
        }
        let sidecars = context.sidecars
        let running = sidecars.running(name)
        let who = "schedule[\(index)]"
        if action.stopsRunning {
            if running.isEmpty { context.note("sidecar-\(name)", .note, "\(who) \(action.rawValue): not running") }
            for position in running {
                if action == .kill { sidecars.killInstance(position, by: who) } else { sidecars.stop(position) }
            }
        }
        if action.starts {
            if !sidecars.running(name).isEmpty {
                context.note("sidecar-\(name)", .note, "\(who) start: already running")
            } else if context.recorded().crash != nil {
                context.note("sidecar-\(name)", .note, "\(who) start: not started after the crash")
            } else {
                sidecars.pending.removeAll { $0.name == name }
                try sidecars.start(sidecar, children: context.children)
            }
        }
        return EventOutcome()
    }
}
