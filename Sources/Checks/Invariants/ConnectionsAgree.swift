import Foundation

/// `connections-agree`: after a restore, every writer and reader that kept its connection open across it uses
/// the restored store. A restore that swaps in a new file (rename over, delete and re-create) leaves an open
/// connection on the old inode: that process goes on reading and writing a store nobody will open again.
struct ConnectionsAgree: Invariant {
    let name = "connections-agree"
    let fix = "restore in place through SQLite (the backup API into the live store) or close every connection first; never rename a file over an open store"
    let consequence = "connections open across the restore keep writing to the old store's file: their saves vanish"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.restores.compactMap { step in
            guard let connections = step.restore?.connections else { return nil }
            let label = step.label
            if connections.stale.isEmpty {
                return Verdict(name, .held, "\(label): \(connections.agreeing.joined(separator: ", ")) see the restored store")
            }
            let others = connections.agreeing.isEmpty ? "" : "; \(connections.agreeing.joined(separator: ", ")) see the restored one"
            return Verdict(name, .violated, "\(label): connections split across the restore\(others)", evidence: connections.stale.map { "\(label): \($0)" })
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no writer or reader kept its connection across a restore in this run" }
}
