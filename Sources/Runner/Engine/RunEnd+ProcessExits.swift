import Checks
import Foundation

extension RunEnd {
    /// How each writer and reader ended: on its own with a status, or killed by the engine (the crash, a
    /// restore that stops the app, the end of the run).
    static func appProcessExits(_ children: ChildRegistry?) -> [ProcessExit] {
        (children?.all ?? []).filter { $0.name.hasPrefix("writer-") || $0.name.hasPrefix("reader-") }.compactMap { child in
            guard let termination = child.process.termination else { return nil }
            let signal = termination.signal
            return ProcessExit(name: child.name, status: signal == nil ? termination.exitCode : nil, signal: signal,
                               killedByRunner: signal == SIGKILL || signal == SIGTERM,
                               outputTail: child.output.split(separator: "\n").suffix(2).joined(separator: " | "))
        }
    }

    /// How a process ended when it ended on its own with a non-zero status: its exit code and the tail of its
    /// output (a process the run stopped ends by a signal and is not a failure).
    static func failure(of child: ChildRegistry.Child?) -> String? {
        guard let child, let status = child.status, status > 0 else { return nil }
        let tail = child.output.split(separator: "\n").suffix(2).joined(separator: " | ")
        return "exited with status \(status)" + (tail.isEmpty ? "" : ": \(tail.prefix(300))")
    }
}
