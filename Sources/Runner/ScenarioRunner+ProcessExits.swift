import Checks
import Foundation

extension ScenarioRunner {
    /// Writers and readers that ended on their own with a non-zero status (`ProcessExits`). Not after a crash: a
    /// frozen volume fails a process's calls until the runner stops it, which is the crash's doing, judged by
    /// the durability invariants.
    func recordProcessExits() {
        guard let children = childRegistry, crash == nil, frozenAt == nil, !crashedByRule else { return }
        let ended = children.all { $0.name.hasPrefix("writer-") || $0.name.hasPrefix("reader-") }.compactMap { child -> ProcessExits.Ended? in
            guard let status = child.status, status > 0 else { return nil }
            return ProcessExits.Ended(name: child.name, status: status,
                                      outputTail: child.output.split(separator: "\n").suffix(2).joined(separator: " | "))
        }
        record(ProcessExits.verdicts(ended))
    }
}
