import Foundation

/// Every process a run starts carries `LIFEBOAT_RUN_MARK=<run>` in its environment, and so does whatever it
/// starts in turn (a `command` strategy's shell, the backup tool that shell runs, a sidecar's daemon): Foundation
/// puts each spawned child in a process group of its own, so neither the pid file nor a process group reaches
/// those grandchildren. A power cut stops them all, so a crash kills every marked process, and the cleanup of a
/// dead run finds its orphans by the same mark long after their parents are gone.
extension ChildRegistry {
    static let markVariable = "LIFEBOAT_RUN_MARK"

    /// The mark of the run whose pid file is `pidFile` (`run-<id>.pids` gives `run-<id>`).
    static func mark(forPidFile pidFile: URL) -> String {
        let name = pidFile.lastPathComponent
        return name.hasSuffix(".pids") ? String(name.dropLast(".pids".count)) : name
    }

    /// Pids of the live processes whose environment carries `mark` (this process excepted).
    static func markedProcesses(_ mark: String) -> [Int32] {
        let needle = Array("\(markVariable)=\(mark)".utf8) + [0]
        let me = getpid()
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { entry -> Int32? in
            guard let pid = Int32(entry), pid > 1, pid != me,
                  let environment = FileManager.default.contents(atPath: "/proc/\(pid)/environ") else { return nil }
            let bytes = [UInt8](environment) + [0]
            // Match a whole NUL-terminated entry: at the start or right after a NUL.
            var start = 0
            while start < bytes.count {
                let end = bytes[start...].firstIndex(of: 0) ?? bytes.count
                if end - start + 1 == needle.count, Array(bytes[start...end]) == needle { return pid }
                start = end + 1
            }
            return nil
        }
    }

    /// Sends `signal` to every process carrying `mark`; SIGKILL again until none is left (a process may start
    /// another between two scans). Returns how many distinct processes were signalled.
    @discardableResult
    static func signalMarked(_ mark: String, _ signal: Int32) -> Int {
        var signalled = Set<Int32>()
        for _ in 0..<(signal == SIGKILL ? 20 : 1) {
            let pids = markedProcesses(mark).filter { signal != SIGKILL || isAlive($0) }
            if pids.isEmpty { break }
            for pid in pids where kill(pid, signal) == 0 { signalled.insert(pid) }
            if signal == SIGKILL { usleep(2_000) }
        }
        return signalled.count
    }

    /// Waits, at most `seconds`, until none of `pids` and no process carrying `mark` is alive. A SIGKILL is sent at
    /// once but takes effect only when the process leaves the kernel: one blocked in a call on a FaultFS mount dies
    /// when that call returns, and until it has exited it can still hold files and folders of its run's scratch
    /// directory, so a removal of that directory right after the signal could fail and leave it behind (seen once
    /// in a full suite under load: `CleanupTests`, the dead run's mount gone, its directory still there).
    static func waitUntilGone(_ pids: [Int32], mark: String, seconds: Double) {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline, pids.contains(where: isAlive) || markedProcesses(mark).contains(where: isAlive) {
            usleep(5_000)
        }
    }

    /// A process with at least one thread that is neither a zombie nor dead (a zombie or exiting process still
    /// shows in /proc until reaped; a multithreaded tool, a Go program shutting down, can show its first thread
    /// as a zombie while the others still work). Used for marked processes and for sidecars' groups.
    static func isAlive(_ pid: Int32) -> Bool {
        let tasks = "/proc/\(pid)/task"
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: tasks)) ?? []
        return threads.contains { thread in
            guard let stat = try? String(contentsOfFile: "\(tasks)/\(thread)/stat", encoding: .utf8),
                  let close = stat.lastIndex(of: ")") else { return false }
            let state = stat[stat.index(after: close)...].trimmingCharacters(in: .whitespaces).first
            return state != "Z" && state != "X"
        }
    }
}
