#if canImport(Glibc)
import Glibc
#endif

/// The pause between two polls of something another process will change (a writer's history, a copy's progress
/// file, a child's exit): short at first, because the answer usually comes within a millisecond, then doubling up
/// to `maximum` while nothing changes. On a loaded machine the process polled for is the one short of CPU, and a
/// fixed 300 µs poll took that CPU from it; the backoff keeps the first answers fast and the long waits cheap.
public struct PollBackoff: Sendable {
    private var pause: UInt32
    private let maximum: UInt32

    /// Pauses of `first` microseconds at first, at most `maximum`.
    public init(first: UInt32 = 100, maximum: UInt32 = 2_000) {
        pause = max(1, first)
        self.maximum = max(pause, maximum)
    }

    /// Sleeps for the current pause and doubles the next one.
    public mutating func wait() {
        usleep(pause)
        pause = min(pause * 2, maximum)
    }
}
