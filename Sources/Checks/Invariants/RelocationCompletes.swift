import Foundation

/// `relocation-completes`: a `relocate` step (a move of the store, App Group relocation) finishes; what it left
/// beside the old store is evidence.
struct RelocationCompletes: Invariant {
    let name = "relocation-completes"
    let fix = "move the store with the mirror off (or signed in), as the move's article does: replace, then add the store at its new place"
    let consequence = "the store's move never finished: the app is left without its store"
    let severity = Severity.loudFailure

    func check(_ run: JudgedRun) -> [Verdict] {
        run.record.operations.filter { $0.action == "relocate" }.map { operation in
            let label = "\(operation.name) (\(operation.strategy))"
            if operation.succeeded {
                let leftovers = operation.details["leftovers"].flatMap { $0.isEmpty ? nil : $0 }
                return Verdict(name, .held, "\(label) finished in \(String(format: "%.2f", operation.end - operation.start)) s",
                               evidence: leftovers.map { ["\(label): left behind beside the old store: \($0)"] } ?? [])
            }
            return Verdict(name, .violated, "\(label) did not finish", evidence: (operation.details["failure"] ?? "").split(separator: "\n").map(String.init))
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no relocate step in this run" }
}
