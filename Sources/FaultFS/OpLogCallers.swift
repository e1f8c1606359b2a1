import Foundation
import Synchronization

/// Names the process behind each logged call, so a runner can tell its own reads from a child's writes and a
/// finding can say which step's `cp` made the write a crash dropped. FUSE reports the calling thread; the
/// process is its thread group, read once per thread from /proc and cached. The first record of each process
/// also carries its command name and parents (`OpRecord.comm`, `.parents`), read while it still runs.
final class OpLogCallers: Sendable {
    private struct State {
        var groupOfThread: [Int32: Int32] = [:]
        var announced: Set<Int32> = []
    }

    private let state = Mutex(State())

    /// Fills `pid` (and, for a process seen for the first time, `comm` and `parents`) of a record made for `thread`.
    func stamp(_ record: inout OpRecord, thread: Int32?) {
        guard let thread else { return }
        let cached: Int32? = state.withLock { $0.groupOfThread[thread] }
        let group: Int32
        var chain: [Int32] = []
        if let cached {
            group = cached
        } else {
            // The chain starts with the thread, then its process (when they differ), then the parents.
            chain = FaultEngine.ancestry(thread)
            group = chain.count > 1 && Self.isThread(thread, of: chain[1]) ? chain[1] : thread
            state.withLock { $0.groupOfThread[thread] = group }
        }
        record.pid = group
        let first = state.withLock { $0.announced.insert(group).inserted }
        guard first else { return }
        if chain.isEmpty { chain = FaultEngine.ancestry(group) }
        record.comm = FaultEngine.command(group)
        record.parents = Array(chain.drop { $0 != group }.dropFirst())
    }

    private static func isThread(_ thread: Int32, of group: Int32) -> Bool {
        guard let status = try? String(contentsOfFile: "/proc/\(thread)/status", encoding: .utf8) else { return false }
        return status.split(separator: "\n").contains { $0.hasPrefix("Tgid:") && Int32($0.dropFirst(5).trimmingCharacters(in: .whitespaces)) == group }
    }
}
