import Foundation
import Workload

/// `relocation-carries-commits`: after a `relocate`, every transaction a writer of the app had acknowledged is in
/// the store the app uses afterwards, and a process that kept the old store open across the move is accounted for
/// (where its later commits went, what it read, how it ended). The pure check is `RelocationCheck`.
struct RelocationCarriesCommits: Invariant {
    let name = "relocation-carries-commits"
    let fix = "stop every process that has the store open before moving it, or delete the old files only once no process can be using them (seed 002's condition)"
    let consequence = "commits made across the move are not in the store the app uses afterwards"
    let severity = Severity.silentLoss

    func check(_ run: JudgedRun) -> [Verdict] {
        run.record.relocations.map { move in
            let oracle = run.oracle(round: move.round)
            let kept = Set(move.kept)
            var processes: [RelocationCheck.Process] = []
            for writer in oracle.writers where !WriterRound.isBulkDelete(writer) {
                let name = "writer-\(writer)"
                let isKept = kept.contains(name)
                let sequence = oracle.sequence(of: writer).filter { $0.outcome == .committed }
                var process = RelocationCheck.Process(name: name, kept: isKept, acknowledged: sequence.count,
                                                      acknowledgedBeforeMove: sequence.filter { ($0.ackAt ?? .infinity) < move.start }.count)
                if let state = isKept ? move.final : move.moved, let match = oracle.match(state).first(where: { $0.writer == writer }) {
                    process.reflected = match.prefixes.max()
                    process.mismatches = match.mismatches
                } else {
                    process.reflected = nil
                    process.mismatches = ["the store at \(URL(fileURLWithPath: move.to).lastPathComponent) cannot be read"]
                }
                if isKept, let old = move.old { process.reflectedInOldStore = oracle.match(old).first { $0.writer == writer }?.prefixes.max() }
                process.failure = move.failures[name]
                processes.append(process)
            }
            for reader in move.kept where reader.hasPrefix("reader-") {
                processes.append(RelocationCheck.Process(name: reader, kept: true, readsAfterMove: move.readsAfterMove[reader] ?? 0,
                                                         failure: move.failures[reader]))
            }
            return RelocationCheck.verdict(label: move.label, newPlace: move.to, processes: processes, old: move.oldFiles)
        }
    }

    func notExercised(_ run: JudgedRun) -> String { "no relocate step finished in this run" }
}
