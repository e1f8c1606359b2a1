import Foundation

/// The processes behind an op log's records: each one's command and parents, from the first record it made
/// (`OpLogCallers` stamps them there, while the process still runs). The one table every reader of a log uses to
/// say who made a call: the crash's causes (`CrashLoss`) and the store's activity on the timeline.
public struct OpLogProcesses: Sendable {
    private var table: [Int32: (comm: String?, parents: [Int32])] = [:]

    public init() {}

    public init(_ records: some Sequence<OpRecord>) {
        for record in records { note(record) }
    }

    /// Takes a record's process into the table when it is that process's first (the one carrying `comm`/`parents`).
    public mutating func note(_ record: OpRecord) {
        guard let pid = record.pid, record.comm != nil || record.parents != nil, table[pid] == nil else { return }
        table[pid] = (record.comm, record.parents ?? [])
    }

    /// The process and its parents, nearest first: what a runner maps to the child it started.
    public func chain(_ pid: Int32) -> [Int32] { [pid] + (table[pid]?.parents ?? []) }

    public func command(_ pid: Int32) -> String? { table[pid]?.comm ?? nil }

    /// Who made a call of process `pid`: "the runner" for `runner`; the child `child` finds in the process's chain,
    /// with the command ("backup-1 (python3)"); else the command and pid ("cp (pid 4242)").
    public func actor(of pid: Int32, runner: Int32, child: ([Int32]) -> String?) -> String {
        if pid == runner { return "the runner" }
        let command = command(pid)
        if let name = child(chain(pid)) { return command.map { "\(name) (\($0))" } ?? name }
        return "\(command ?? "process") (pid \(pid))"
    }
}
