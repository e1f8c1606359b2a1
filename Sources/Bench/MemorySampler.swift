import Foundation
import Synchronization

/// One reading of a child's resident set while it runs.
public struct MemorySample: Codable, Sendable, Equatable {
    /// Seconds since the child started.
    public var t: Double
    public var rssBytes: Int64

    public init(t: Double, rssBytes: Int64) {
        self.t = t
        self.rssBytes = rssBytes
    }
}

/// Reads a running child's VmRSS from /proc/<pid>/status on its own thread, so the bench can draw each
/// strategy's memory over time (migrate's climb to the store's size, replace's flat line), not just the peak.
/// Every 20 ms at first; past 400 readings every other one is dropped and the interval doubles, so a long
/// round keeps at most 400 points spread over its whole run.
final class MemorySampler: Sendable {
    static let limit = 400
    private let state = Mutex<(samples: [MemorySample], stopped: Bool)>(([], false))
    private let done = DispatchSemaphore(value: 0)

    init(pid: pid_t) {
        let started = Date()
        Thread.detachNewThread { [self] in
            var interval = 0.02
            while !state.withLock({ $0.stopped }) {
                let reading = ProcStatus.current("VmRSS", pid: pid)
                // No VmRSS once the child has exited (a zombie has none): its run is over.
                if reading == nil, !state.withLock({ $0.samples.isEmpty }) { break }
                if let rss = reading {
                    let sample = MemorySample(t: Date().timeIntervalSince(started), rssBytes: rss)
                    let thinned = state.withLock { state -> Bool in
                        guard !state.stopped else { return false }
                        state.samples.append(sample)
                        guard state.samples.count > Self.limit else { return false }
                        state.samples = state.samples.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                        return true
                    }
                    if thinned { interval *= 2 }
                }
                Thread.sleep(forTimeInterval: interval)
            }
            done.signal()
        }
    }

    /// Stops sampling (before the child is reaped, so its pid cannot name another process yet) and returns the readings.
    func stop() -> [MemorySample] {
        state.withLock { $0.stopped = true }
        done.wait()
        return state.withLock { $0.samples }
    }
}
