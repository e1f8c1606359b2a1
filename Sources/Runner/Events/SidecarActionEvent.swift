import Foundation
import Scenario

/// `sidecar: NAME` with `action: kill | stop | start | restart`: a backup tool killed where it stands (SIGKILL to
/// its process group), stopped cleanly (SIGTERM, then SIGKILL after its grace), started again, or both, at the
/// entry's time. A later instance logs as `sidecar-NAME.2`, and so on.
struct SidecarActionEvent: RunEventKind {
    var kinds: [String] { ["sidecar"] }

    func run(_ event: DueEvent, _ context: EventContext) throws -> EventOutcome {
        let runner = context.engine
        guard let step = event.step, let index = event.index else { return EventOutcome() }
        let action = step.options["action"] ?? "restart"
        let name = step.strategy
        guard let sidecar = runner.scenario.sidecars.first(where: { $0.name == name }) else {
            runner.record.errors.append("schedule[\(index)]: no sidecar named '\(name)'")
            return EventOutcome()
        }
        let state = runner.sidecarState
        let running = state.entries.indices.filter { state.entries[$0].sidecar.name == name && state.entries[$0].end == nil }
        let who = "schedule[\(index)]"
        if action == "kill" || action == "stop" || action == "restart" {
            if running.isEmpty { runner.note("sidecar-\(name)", .note, "\(who) \(action): not running") }
            for position in running {
                if action == "kill" {
                    let pid = state.entries[position].child.pid
                    kill(getpgid(pid) == pid ? -pid : pid, SIGKILL)
                    kill(pid, SIGKILL)
                    let settle = Date().addingTimeInterval(1)
                    while state.entries[position].child.isRunning, Date() < settle { usleep(5_000) }
                    runner.endSidecar(position, ending: "killed by \(who) (SIGKILL)")
                } else {
                    runner.stopSidecar(position)
                }
            }
        }
        if action == "start" || action == "restart" {
            let stillRunning = state.entries.contains { $0.sidecar.name == name && $0.end == nil }
            if stillRunning {
                runner.note("sidecar-\(name)", .note, "\(who) start: already running")
            } else if runner.record.crash != nil {
                runner.note("sidecar-\(name)", .note, "\(who) start: not started after the crash")
            } else {
                state.pending.removeAll { $0.name == name }
                try runner.startSidecar(sidecar, children: context.children)
            }
        }
        return EventOutcome()
    }
}
